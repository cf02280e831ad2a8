import Foundation
import FuzzTargets
import Testing

/// Every input kept in `Fuzz/Corpus/<target>/` — the seeds, and each input a fuzzer once broke hmon
/// with — run once through the same entry point the fuzzer calls, so a fixed crash stays fixed.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    @Test(arguments: FuzzTarget.allCases)
    func corpusRunsClean(target: FuzzTarget) throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count >= 3, "the \(target.rawValue) corpus has \(names.count) inputs; the fuzzer starts from these")
        try target.prepare()
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(throws: Never.self, "\(target.rawValue)/\(name)") { try target.run(Array(data)) }
        }
    }
}
