import Foundation
import FuzzTargets
import Testing
import TestSupport

/// Every input kept in `Fuzz/Corpus/<target>/` — the seeds, and each input a fuzzer once broke hmon
/// with — run once through the same entry point the fuzzer calls, so a fixed crash stays fixed.
@Suite(.heavy) struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    @Test(arguments: FuzzTarget.allCases)
    func corpusRunsClean(target: FuzzTarget) async throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count >= 3, "the \(target.rawValue) corpus has \(names.count) inputs; the fuzzer starts from these")
        // The fuzzer's entry points are synchronous, and the server's waits for a server it runs on Swift's
        // task pool: on a thread of their own, or two such waits at once would hold every pool thread.
        let failures = try await offThePool { () throws -> [String] in
            try target.prepare()
            var failures: [String] = []
            for name in names {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                do { try target.run(Array(data)) } catch { failures.append("\(target.rawValue)/\(name): \(error)") }
            }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
