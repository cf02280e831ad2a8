import Foundation
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel

/// What `hmon db copy` does not do without a word: drop a column the target lacks, or leave a table out
/// that no one chose to leave out.
@Suite struct StoreCopyCatalogTests {
    @Test func aColumnTheTargetLacksIsRefusedAndNothingIsCopied() async throws {
        let source = try await StoreWorld(.sqlite)
        try await source.execute("ALTER TABLE profiles ADD COLUMN only_here TEXT")
        try await StoreCopyTests.fill(source)
        let target = try await StoreWorld(.sqlite)
        let refused = await #expect(throws: HealthError.self) { try await StoreCopy.copy(from: source.store, to: target.store) }
        #expect(refused?.message.contains("has no column profiles.only_here") == true, "\(String(describing: refused))")
        #expect(refused?.message.hasSuffix("nothing was copied") == true)
        #expect(try await target.store.users().isEmpty, "the target was touched")
    }

    /// Each table kept out of a copy is one a store has: the list names no table that is gone.
    @Test func everyTableLeftOutOfACopyExists() async throws {
        var tables: Set<String> = []
        for engine in StoreEngine.available {
            let world = try await StoreWorld(engine)
            tables.formUnion(try await (try #require(world.store as? any StoreRowCopying)).copyCatalog().columns.keys)
        }
        let stale = Set(StoreCopy.notCopied.keys).subtracting(tables)
        #expect(stale.isEmpty || !StoreEngine.available.contains(.postgres) && stale == ["hmon_meta"], "\(stale.sorted())")
    }

    @Test func tablesAreCopiedAfterTheTablesTheyReferTo() throws {
        let order = try StoreCopy.ordered(["messages", "devices", "users", "tokens"],
                                          parents: ["messages": ["devices", "users"], "devices": ["users"], "tokens": ["users", "tokens"]])
        #expect(order == ["users", "devices", "tokens", "messages"])
        #expect(throws: HealthError.self) { try StoreCopy.ordered(["a", "b"], parents: ["a": ["b"], "b": ["a"]]) }
    }
}
