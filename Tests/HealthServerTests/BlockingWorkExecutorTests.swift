import Foundation
@testable import HealthServer
import Testing

/// The Health Auto Export route imports a payload under `BlockingWorkExecutor`: SQLite's import is a
/// synchronous call that holds its thread for the whole transaction, and it must hold the executor's
/// own thread, not one of the cooperative pool's (two on a two-core server).
@Suite struct BlockingWorkExecutorTests {
    /// Stands for the store's synchronous import, reached through an async protocol requirement.
    protocol Importer: Sendable { func run() async -> String? }
    struct BlockingImporter: Importer { func run() -> String? { BlockingWorkExecutor.currentLabel } }

    @Test func aSynchronousWitnessRunsOnTheExecutorsQueue() async {
        let executor = BlockingWorkExecutor(label: "test.import")
        let importer: any Importer = BlockingImporter()
        #expect(await importer.run() == nil, "without the preference, on the cooperative pool")
        let label = await withTaskExecutorPreference(executor) { await importer.run() }
        #expect(label == "test.import")
    }
}
