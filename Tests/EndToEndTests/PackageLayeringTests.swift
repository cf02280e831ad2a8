import Foundation
import TestSupport
import Testing

/// The layering of `Package.swift`, read as SwiftPM reads it (`swift package dump-package`): the terminal
/// and the view models link no database driver and no HTTP client, and the engines stay out of the core
/// and the server. The compiler enforces imports inside a target; this enforces which targets exist where.
@Suite(.enabled(if: InstalledTool.path(of: "swift") != nil, "needs the swift command on PATH to read Package.swift"))
struct PackageLayeringTests {
    /// What only the engines and the executable that wires them in may link.
    static let engineParts: Set<String> = ["GRDB", "PostgresNIO", "AsyncHTTPClient", "NIOPosix", "SQLiteStorage",
                                           "PostgresStorage", "RemoteClient"]

    @Test func theScreensTheCoreAndTheServerLinkNoEngine() async throws {
        let closures = try await Self.dependencyClosures()
        for target in ["HealthModel", "HealthCore", "HealthViewModels", "HMonTUI", "Terminal", "HealthServer"] {
            let closure = try #require(closures[target], "no target \(target) in Package.swift")
            #expect(closure.isDisjoint(with: Self.engineParts),
                    "\(target) links \(closure.intersection(Self.engineParts).sorted())")
        }
        // The model depends on Foundation alone (and the one checked conversion).
        #expect(try #require(closures["HealthModel"]) == ["CheckedNumbers"])
        // The executable is where the engines come in; if it lost them, the check above would prove nothing.
        #expect(try #require(closures["hmon"]).isSuperset(of: ["SQLiteStorage", "PostgresStorage", "RemoteClient", "GRDB"]))
        #expect(try #require(closures["SQLiteStorage"]).contains("GRDB"))
        #expect(!(try #require(closures["SQLiteStorage"])).contains("PostgresNIO"), "one engine does not link the other")
        #expect(!(try #require(closures["PostgresStorage"])).contains("GRDB"), "one engine does not link the other")
    }

    /// Each target's dependencies, followed through targets and named products (a product's own
    /// dependencies live in its package and are not listed; GRDB and the others are named directly).
    static func dependencyClosures() async throws -> [String: Set<String>] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // A scratch folder of its own: the running `swift test` holds the lock on `.build`.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try await ChildProcess.running("swift", ["package", "--package-path", root.path, "--scratch-path", scratch.path,
                                                  "dump-package"])
        try #require(run.status == 0, "swift package dump-package: \(run.errors)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let targets = try #require(document["targets"] as? [[String: Any]])
        var direct: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            let dependencies = target["dependencies"] as? [[String: Any]] ?? []
            direct[name] = dependencies.compactMap { dependency in
                for kind in ["byName", "target", "product"] {
                    if let values = dependency[kind] as? [Any], let first = values.first as? String { return first }
                }
                return nil
            }
        }
        func closure(_ name: String, _ seen: inout Set<String>) {
            for next in direct[name] ?? [] where seen.insert(next).inserted { closure(next, &seen) }
        }
        return direct.keys.reduce(into: [:]) { result, name in
            var seen: Set<String> = []
            closure(name, &seen)
            result[name] = seen
        }
    }
}
