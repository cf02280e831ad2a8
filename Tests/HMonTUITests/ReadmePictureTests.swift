import Foundation
import Testing

/// The README's first picture is the Weights screen at 80×24 as this build draws it: the same rows as the
/// reference frame `weights-80x24.txt` (which `ScreenSnapshotTests` checks against the build), all but the
/// status bar, whose store path is the reader's (~/.local/share/hmon/demo.sqlite) rather than a test's
/// temporary folder. A change to the screen that re-records the frame fails here until the README is redrawn.
struct ReadmePictureTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theReadmePictureIsTheWeightsScreenAsBuilt() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let frame = try String(contentsOf: Self.repository.appendingPathComponent("Tests/HMonTUITests/__Snapshots__/weights-80x24.txt"),
                               encoding: .utf8)
        let block = try #require(readme.firstMatch(of: /```text\n(.*?)```/.dotMatchesNewlines())).output.1
        let picture = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let expected = frame.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(picture.count >= 24 && expected.count >= 24)
        #expect(Array(picture.prefix(23)) == Array(expected.prefix(23)),
                "redraw the README's picture: hmon snapshot --screen weights --demo --size 80x24 --at \"2026-11-20 18:00\"")
    }
}
