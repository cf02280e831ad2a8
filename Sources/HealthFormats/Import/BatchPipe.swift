import Foundation
import HealthCore
import HealthModel

/// Carries batches of readings from the thread that reads an export to the thread that writes them.
///
/// Reading (the XML scan) and writing (the store) each take a good part of a large import; on two
/// threads they overlap. At most `capacity` batches wait in the pipe, so memory stays bounded whatever
/// the file size. Either side can stop the other: the writer with `cancel()` (a store error), the reader
/// by finishing with a failure (a malformed file).
///
/// `Item` is what the reading thread makes of each reading before it crosses (see `ReadingPreparer`):
/// both imports send rows already encoded for the store (`ImportRow`), so work that needs no database
/// is done on the reading thread, which has time to spare, not on the writing one.
///
/// `@unchecked Sendable`: every stored property is read and written only while `condition` is locked.
package final class BatchPipe<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var batches: [[Item]] = []
    private var outcome: Result<ImportResult, any Error>?
    private var cancelled = false

    /// Thrown to the reader when the writer has stopped.
    package struct Cancelled: Error {}

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Reader: queues a batch, waiting while the pipe is full. Throws `Cancelled` once the writer stopped.
    package func send(_ batch: [Item]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    /// Reader: the file is read (or could not be).
    package func finish(_ result: Result<ImportResult, any Error>) {
        condition.lock()
        outcome = result
        condition.broadcast()
        condition.unlock()
    }

    /// Writer: the next batch; nil when the reader has finished (successfully or not) and, on
    /// success, every batch has been taken.
    package func receive() -> [Item]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if case .failure = outcome { return nil }
            if !batches.isEmpty {
                condition.broadcast()
                return batches.removeFirst()
            }
            if outcome != nil { return nil }
            condition.wait()
        }
    }

    /// Writer: stops the reader at its next batch and waits until it has finished.
    package func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        condition.broadcast()
        while outcome == nil { condition.wait() }
        condition.unlock()
    }

    /// Writer, after `receive()` returned nil: what the reader found, or why it failed.
    package func result() throws -> ImportResult {
        condition.lock()
        defer { condition.unlock() }
        guard let outcome else { preconditionFailure("the reader has not finished") }
        return try outcome.get()
    }

    /// Reads `url` on a thread of its own, passing each reading through `preparer` and sending the
    /// results in batches. An error `preparer` throws ends the reading like a malformed file.
    package static func startReading<Preparer: ReadingPreparer>(
        _ url: URL, timeZone: TimeZone, options: ImportOptions = ImportOptions(),
        progress: (@Sendable (ImportProgress) -> Void)?, into pipe: BatchPipe<Item>,
        batchSize: Int = 512, preparing preparer: Preparer
    ) where Preparer.Prepared == Item {
        startReading(into: pipe, batchSize: batchSize) { send in
            var preparer = preparer
            // `Importer.read` keeps its closure no longer than the call.
            return try withoutActuallyEscaping(send) { send in
                try Importer.read(url, timeZone: timeZone, options: options, progress: progress) { reading in
                    try send(try preparer.prepare(reading))
                }
            }
        }
    }

    /// Runs `read` on a thread of its own; each item it hands to `send` goes into the pipe in batches of
    /// `batchSize`, and what it returns (or throws) finishes the pipe.
    package static func startReading(into pipe: BatchPipe<Item>, batchSize: Int = 512,
                                     _ read: @escaping @Sendable (_ send: (Item) throws -> Void) throws -> ImportResult) {
        let thread = Thread {
            var batch: [Item] = []
            batch.reserveCapacity(batchSize)
            do {
                let result = try read { item in
                    batch.append(item)
                    if batch.count == batchSize {
                        try pipe.send(batch)
                        batch = []
                        batch.reserveCapacity(batchSize)
                    }
                }
                if !batch.isEmpty { try pipe.send(batch) }
                pipe.finish(.success(result))
            } catch {
                pipe.finish(.failure(error))
            }
        }
        thread.name = "hmon import reader"
        thread.start()
    }
}

/// What the reading thread makes of each reading before its batch crosses to the writer.
package protocol ReadingPreparer: Sendable {
    associatedtype Prepared
    mutating func prepare(_ reading: ImportedReading) throws -> Prepared
}

