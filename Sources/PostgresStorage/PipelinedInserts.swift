import Foundation
import PostgresNIO
import HealthCore
import HealthFormats

/// What an import's writer does with the reading thread's batches on PostgreSQL: puts the next insert
/// together (`prepare`: devices found or made, columns filled), then counts what the server added
/// (`account`). The insert itself runs between the two (`PostgresStore.drain`).
protocol PipelinedInsertWriter: AnyObject {
    associatedtype Row: Sendable
    /// What `account` needs to know of the insert's readings.
    associatedtype Batch
    func prepare(_ rows: [Row]) async throws -> (batch: Batch, columns: ImportedMessageColumns)
    func account(_ batch: Batch, added: Set<String>) async throws
}

extension PostgresStore {
    /// Readings per multi-row insert.
    static let rowsPerInsert = 8192

    /// Drains the reading thread's batches into inserts of `rowsPerInsert` readings, one in flight while the
    /// next is put together and encoded. Waiting for each insert before preparing the next left both cores
    /// idle a fifth of the time (perf, 300 MB export: the server and hmon took turns); the statements still
    /// run one after another on the transaction's connection, so what each sees is as before.
    static func drain<Writer: PipelinedInsertWriter>(_ pipe: BatchPipe<Writer.Row>, into writer: Writer, userID: String,
                                                     received: Int64, db: PGConnection) async throws {
        var pending: [Writer.Row] = []
        var inFlight: (batch: Writer.Batch, insert: Task<Set<String>, any Error>)?
        func send(_ rows: [Writer.Row]) async throws {
            let (batch, columns) = try await writer.prepare(rows)
            try await settle()
            guard !columns.isEmpty else { return try await writer.account(batch, added: []) }
            inFlight = (batch, Task { try await columns.insertUnlessStored(userID: userID, received: received, in: db) })
        }
        func settle() async throws {
            guard let current = inFlight else { return }
            inFlight = nil
            try await writer.account(current.batch, added: try await current.insert.value)
        }
        do {
            while let batch = await nextBatch(pipe) {
                pending += batch
                if pending.count >= rowsPerInsert {
                    try await send(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
            if !pending.isEmpty { try await send(pending) }
            try await settle()
        } catch {
            pipe.cancel()
            // The transaction's rollback waits for the insert on the connection anyway; this one is not left running.
            _ = try? await inFlight?.insert.value
            throw error
        }
    }

    /// Waits for the reading thread's next batch on a thread of its own: blocking one of Swift's few
    /// cooperative threads would stall the inserts' own continuations.
    private static func nextBatch<Row>(_ pipe: BatchPipe<Row>) async -> [Row]? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: pipe.receive()) }
        }
    }
}
