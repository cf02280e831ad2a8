import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// The reading thread and the writing thread stop each other cleanly.
@Suite struct ReadingPipeTests {
    static func manyWeights(_ count: Int, brokenAt broken: Int? = nil) -> String {
        AppleHealthXML.document((0..<count).map { i in
            let record = AppleHealthXML.record("BodyMass", "\(60 + Double(i % 300) / 10)", unit: "kg",
                                               at: String(format: "2020-01-01 %02d:%02d:%02d +0000", i / 3600 % 24, i / 60 % 60, i % 60),
                                               source: "Scale \(i / 5000)")
            return i == broken ? record.replacingOccurrences(of: "unit=\"kg\"", with: "unit=\"kg") : record
        }.joined(separator: "\n"))
    }

    /// The pipe both imports use: each reading's row made on the reading thread.
    static func startedPipe(_ file: URL, capacity: Int, batchSize: Int) -> BatchPipe<ImportRow> {
        let pipe = BatchPipe<ImportRow>(capacity: capacity)
        BatchPipe.startReading(file, timeZone: .current, progress: nil, into: pipe, batchSize: batchSize,
                               preparing: ImportRowPreparer(userID: "u1", received: Date().millisecondsSince1970))
        return pipe
    }

    @Test func aWriterThatStopsStopsTheReader() throws {
        let folder = try TempFolder()
        let file = try folder.write("export.xml", Self.manyWeights(12_000))
        let pipe = Self.startedPipe(file, capacity: 2, batchSize: 100)

        #expect(pipe.receive()?.count == 100)
        pipe.cancel()   // returns only once the reader has finished
        #expect(throws: BatchPipe<ImportRow>.Cancelled.self) { try pipe.result() }
    }

    @Test func everyReadingArrivesInOrderThroughAFullPipe() throws {
        let folder = try TempFolder()
        let file = try folder.write("export.xml", Self.manyWeights(3_000))
        let pipe = Self.startedPipe(file, capacity: 1, batchSize: 7)
        var received: [ImportedReading] = []
        while let batch = pipe.receive() { received += batch.map(\.reading) }

        let (_, direct) = try readAll(file)
        #expect(received == direct)
        #expect(try pipe.result().tally.kept[.weight] == 3_000)
    }

    @Test(arguments: StoreEngine.available) func aFileBrokenFarInKeepsNothingThoughManyBatchesWereWritten(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        _ = try await world.importFile(try world.folder.write("first.xml", StoreImportTests.weights(1...3)))
        let file = try world.folder.write("export.xml", Self.manyWeights(12_000, brokenAt: 11_000))

        let error = try await #require(throws: ImportError.self) { try await world.importFile(file) }
        #expect(error.problem == "unexpected '2' in <Record>")
        #expect(try await world.messageCount() == 3)
        #expect(try await world.store.devices(userID: world.user.id).count == 1)
    }
}
