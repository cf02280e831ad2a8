import FuzzTargets
import Foundation

// Two builds of one program (see Fuzz/fuzz.sh):
// - with `-sanitize=fuzzer -D HMON_LIBFUZZER`, libFuzzer supplies `main` and calls the entry points
//   below; `HMON_FUZZ_TARGET` names the target;
// - in every other build, `hmon-fuzz TARGET FILE|FOLDER…` runs saved inputs through the target once
//   each, which is how a crash libFuzzer wrote down is replayed in a debugger.

#if HMON_LIBFUZZER
import CLibFuzzer

nonisolated(unsafe) private var chosen: FuzzTarget?

/// SwiftPM links an executable with `main` defined as `<module>_main`, so libFuzzer's own `main` is never
/// pulled in; this is that entry point, and it hands over to libFuzzer's driver.
@_cdecl("hmon_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let name = ProcessInfo.processInfo.environment["HMON_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("hmon-fuzz: set HMON_FUZZ_TARGET to one of \(names)\n".utf8))
        exit(2)
    }
    do {
        try target.prepare()
    } catch {
        FileHandle.standardError.write(Data("hmon-fuzz: cannot prepare \(name): \(error)\n".utf8))
        exit(2)
    }
    chosen = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try chosen!.run(input)
    } catch {
        // A broken promise is a finding like a crash: libFuzzer saves the input when the process aborts.
        FileHandle.standardError.write(Data("hmon-fuzz: \(chosen!.rawValue): \(error)\n".utf8))
        abort()
    }
    return 0
}
#else
@main
struct FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            print("usage: hmon-fuzz \(names) FILE|FOLDER…  (runs saved inputs once each; Fuzz/fuzz.sh fuzzes)")
            exit(2)
        }
        do {
            try target.prepare()
        } catch {
            print("hmon-fuzz: cannot prepare \(name): \(error)")
            exit(2)
        }
        var failures = 0, count = 0
        for file in arguments.dropFirst().flatMap(files) {
            count += 1
            guard let data = FileManager.default.contents(atPath: file) else {
                print("\(file): cannot be read"); failures += 1; continue
            }
            do {
                try target.run(Array(data))
            } catch {
                print("\(file): \(error)"); failures += 1
            }
        }
        print("replayed \(count) inputs: \(failures) broke a promise")
        exit(failures == 0 ? 0 : 1)
    }

    /// A file, or the files of a folder (not recursive), sorted so runs are repeatable.
    static func files(_ path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}
#endif
