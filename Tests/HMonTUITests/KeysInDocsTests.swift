import Foundation
@testable import HMonTUI
import Testing
import SQLiteStorage

/// docs/dashboard.md's key tables are the key tables: the block between its marker lines is what
/// `hmon keys --markdown` writes from them, and every key that works everywhere, and every key of each
/// screen, is named there (a key added to a table and not to the docs fails here).
@MainActor
struct KeysInDocsTests {
    private static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/dashboard.md")
        .standardizedFileURL

    private var keysSection: String {
        get throws {
            let text = try String(contentsOf: Self.docs, encoding: .utf8)
            let start = try #require(text.range(of: "## Keys"))
            return String(text[start.lowerBound...])
        }
    }

    /// The generated tables as the docs hold them: a key, a help line or a screen changed in a key table and
    /// not regenerated in the docs fails here. `HMON_RECORD_DOCS=1` writes them, as the reference frames are.
    @Test func theDocsKeyTablesAreWhatTheKeyTablesWrite() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let text = try String(contentsOf: Self.docs, encoding: .utf8)
        let begin = try #require(text.range(of: KeyListingMarkdown.begin), "docs/dashboard.md has no line \(KeyListingMarkdown.begin)")
        let end = try #require(text.range(of: KeyListingMarkdown.end, range: begin.upperBound..<text.endIndex),
                               "docs/dashboard.md has no line \(KeyListingMarkdown.end) after the first marker")
        let documented = String(text[begin.lowerBound..<end.upperBound])
        let generated = KeyListingMarkdown.block(of: dashboard)
        if documented != generated, ProcessInfo.processInfo.environment["HMON_RECORD_DOCS"] == "1" {
            try text.replacingCharacters(in: begin.lowerBound..<end.upperBound, with: generated)
                .write(to: Self.docs, atomically: true, encoding: .utf8)
            return
        }
        #expect(documented == generated, """
            docs/dashboard.md's key tables differ from the dashboard's key tables: write them with \
            `HMON_RECORD_DOCS=1 swift test --skip-build --filter KeysInDocsTests` (or put the output of \
            `hmon keys --markdown` in place of the lines from the first marker through the last) and read the diff
            """)
    }

    @Test func everyKeyOfEveryTableIsInTheDocs() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let docs = try keysSection
        let tables = [("everywhere", dashboard.globalBindings)] + dashboard.screens.map { ($0.title, $0.allBindings) }
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
