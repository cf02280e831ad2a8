import Foundation
import TestSupport
import Testing

/// The layering of `Package.swift`, read as SwiftPM reads it (`swift package dump-package`): the terminal
/// and the view models link no database driver and no HTTP client, and the engines stay out of the core
/// and the server. The compiler enforces imports inside a target; this enforces which targets exist where.
@Suite(.heavy, .enabled(if: InstalledTool.path(of: "swift") != nil, "needs the swift command on PATH to read Package.swift"))
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

    /// The core is the store seam and the service: the file formats, the SAMI wire contract and the outside
    /// services' connectors sit above it, so a parser edit does not rebuild the screens, and the view models
    /// link neither a zip reader nor the contract's JSON.
    @Test func theCoreAndTheViewModelsLinkNoFileFormatNoWireContractAndNoConnector() async throws {
        let closures = try await Self.dependencyClosures()
        let outerParts: Set<String> = ["HealthFormats", "SAMIContract", "HealthConnectors", "ZIPFoundation", "CZlibChecksum"]
        for target in ["HealthCore", "HealthViewModels", "HMonTUI"] {
            let closure = try #require(closures[target], "no target \(target) in Package.swift")
            #expect(closure.isDisjoint(with: outerParts), "\(target) links \(closure.intersection(outerParts).sorted())")
        }
        // Each outer part stands on the core, and the places that read files, serve the contract or pull from
        // Withings have them.
        for part in ["HealthFormats", "SAMIContract", "HealthConnectors"] {
            #expect(try #require(closures[part]).contains("HealthCore"), "\(part) is built on the core")
        }
        #expect(try #require(closures["HealthFormats"]).contains("ZIPFoundation"))
        #expect(try #require(closures["HealthServer"]).isSuperset(of: ["HealthFormats", "SAMIContract", "HealthConnectors"]))
        #expect(try #require(closures["RemoteClient"]).contains("SAMIContract"))
    }

    /// docs/architecture.md names every target a source folder holds and every role a store is made of, so
    /// the page cannot fall behind a split or a new role.
    @Test func theArchitecturePageNamesEveryTargetAndEveryRole() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let targets = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") && $0 != "hmon" && $0 != "hmon-bench" }
        #expect(targets.count > 10)
        for target in targets {
            #expect(page.contains("`\(target)`"), "docs/architecture.md does not name the target \(target)")
        }
        let seam = try String(contentsOf: root.appendingPathComponent("Sources/HealthCore/Store/HealthStore.swift"), encoding: .utf8)
        let declaration = try #require(seam.range(of: "public protocol HealthStore:").map { seam[$0.upperBound...] })
        let roles = declaration.prefix { $0 != "{" }.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0 != "AnyObject" && $0 != "Sendable" }
        #expect(roles.count >= 10)
        for role in roles {
            #expect(page.contains("`\(role)`"), "docs/architecture.md does not name the role \(role)")
        }
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
