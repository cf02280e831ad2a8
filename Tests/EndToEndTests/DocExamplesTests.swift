import Foundation
import TestSupport
import Testing

/// Every `sh` example of README.md and docs/*.md, run by `Tests/DocExamples/run-doc-examples.sh` against the
/// `hmon` of this build, so that the documentation cannot drift from what hmon does. The examples run in
/// temporary folders of their own (HOME and the XDG folders too); the server examples listen on
/// 127.0.0.1:8080. Without bash or curl the suite is skipped, and says so; a missing `hmon` fails the test
/// (see `builtHmon()`).
@Suite(.heavy, .enabled(if: InstalledTool.path(of: "bash") != nil && InstalledTool.path(of: "curl") != nil,
                "needs bash and curl: apt-get install curl"))
struct DocExamplesTests {
    /// The repository's root: this file is `Tests/EndToEndTests/DocExamplesTests.swift` in it.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyShellExampleInTheDocumentationRuns() async throws {
        let runner = Self.repository.appendingPathComponent("Tests/DocExamples/run-doc-examples.sh")
        let hmon = try builtHmon().path
        // Minutes of waiting on one child: not on one of the task pool's two threads (`offThePool`).
        let finished = try await offThePool { try ChildProcess.run("bash", [runner.path, hmon]) }
        #expect(finished.status == 0, "run-doc-examples.sh exited \(finished.status):\n\(finished.output)\(finished.errors)")
    }
}
