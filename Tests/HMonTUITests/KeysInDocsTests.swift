import Foundation
@testable import HMonTUI
import Testing
import SQLiteStorage

/// docs/dashboard.md's key tables say what the key tables do: every key that works everywhere, and every
/// key of each screen, is named there (a key added to a table and not to the docs fails here).
@MainActor
struct KeysInDocsTests {
    private var keysSection: String {
        get throws {
            let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/dashboard.md")
            let text = try String(contentsOf: docs, encoding: .utf8)
            let start = try #require(text.range(of: "## Keys"))
            return String(text[start.lowerBound...])
        }
    }

    @Test func everyKeyOfEveryTableIsInTheDocs() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let docs = try keysSection
        let tables = [("everywhere", dashboard.globalBindings)] + dashboard.screens.map { ($0.title, $0.bindings) }
        for (title, bindings) in tables {
            for binding in bindings {
                let named = binding.keys.contains { key in
                    let name = key.description
                    return docs.contains("`\(name)`") || docs.contains(" \(name) ") || docs.contains(" \(name),")
                        || docs.contains("\(name)/") || docs.contains("/\(name)") || docs.contains("(`\(name)`")
                }
                #expect(named, "\(binding.keyNames) (\(binding.help)) on \(title) is not in docs/dashboard.md's keys")
            }
        }
    }
}
