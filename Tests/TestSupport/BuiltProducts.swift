import Foundation

/// The executables this build made, found next to the running test bundle rather than at a fixed
/// `.build/debug`: `swift test --scratch-path DIR`, a release test run and another triple all put the
/// test bundle in the same folder as the `hmon` it built, so that folder is the one to look in.
public enum BuiltProducts {
    /// A product the tests need and the build did not leave where the test bundle is.
    public struct Missing: Error, CustomStringConvertible {
        public let name: String
        public let folder: URL
        public var description: String {
            "\(name) is not in \(folder.path), the folder of the running test bundle: build it with "
                + "`swift build --build-tests` (or run `swift test`, which builds it) using the same scratch path"
        }
    }

    /// The build's products folder: where the running test bundle sits.
    /// - Linux: the test runner is the executable `…/<triple>/<configuration>/hmonPackageTests.xctest`
    ///   (or a runner beside it), so the folder of `/proc/self/exe`.
    /// - macOS: the runner is `xctest` or `swiftpm-testing-helper` from the toolchain, which loads the bundle
    ///   `…/<configuration>/hmonPackageTests.xctest`; the bundle holding this code, through `Bundle(for:)`,
    ///   gives the folder it sits in.
    public static let folder: URL = {
        #if os(Linux)
        // The kernel's link names the running file even when it was started through a relative path.
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent()
        #else
        let bundle = Bundle(for: BundleMarker.self)
        if bundle.bundleURL.pathExtension == "xctest" {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        // Not loaded from a bundle (a plain test executable): its own folder.
        return Bundle.main.executableURL?.deletingLastPathComponent() ?? bundle.bundleURL
        #endif
    }()

    /// The executable `name` of this build; throws `Missing`, naming the folder and the fix, when it is not there.
    public static func executable(named name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else { throw Missing(name: name, folder: folder) }
        return url
    }
}

#if !os(Linux)
/// A class of this module, for `Bundle(for:)` to find the bundle the tests were loaded from.
private final class BundleMarker {}
#endif
