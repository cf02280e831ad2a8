import Foundation
import HMonTUI
import HealthViewModels
import Terminal
import Testing

/// Every screen at the minimum size, 80×24 and 120×40, compared with reviewed reference frames in
/// `__Snapshots__/`. A missing reference is written and the test fails so that someone looks at it;
/// `HMON_RECORD_SNAPSHOTS=1` rewrites them all after an intended change.
@MainActor
struct ScreenSnapshotTests {
    nonisolated static let sizes = [Size(width: 60, height: 16), Size(width: 80, height: 24), Size(width: 120, height: 40)]

    /// Every registered screen, the sign-in form and the help overlay: a screen added to the registry is
    /// covered here without another line.
    @Test(arguments: ScreenRegistry.snapshotNames, sizes)
    func screenMatchesItsReviewedFrame(screen: String, size: Size) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard(signedIn: screen != ScreenID.signIn.rawValue)
        let text = DemoWorld.stable(await dashboard.snapshot(of: screen, size: size).renderPlain())
        try expectSnapshot(text, named: "\(screen)-\(size.width)x\(size.height)")
    }

    @Test func everyFrameFitsItsSizeAndLeavesNoEmptyRowsAtTheEdges() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        for size in Self.sizes + [Size(width: 200, height: 60)] {
            let text = await dashboard.snapshot(of: "weights", size: size).renderPlain()
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == size.height)
            #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= size.width })
            #expect(lines.first?.contains("Weights") == true, "the tab bar is on top at \(size)")
            #expect(lines.last?.contains("q quit") == true, "the status bar is at the bottom at \(size)")
        }
    }

    @Test func belowTheMinimumSizeTheScreenSaysSo() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let text = await dashboard.snapshot(of: "weights", size: Size(width: 59, height: 16)).renderPlain()
        #expect(text.contains("Terminal too small"))
        #expect(text.contains("have 59×16, need 60×16"))
        #expect(!text.contains("Weight in kg"))
    }
}

/// Compares `text` with `__Snapshots__/NAME.txt` next to this file.
func expectSnapshot(_ text: String, named name: String, sourceFile: String = #filePath) throws {
    let folder = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let file = folder.appendingPathComponent("\(name).txt")
    let record = ProcessInfo.processInfo.environment["HMON_RECORD_SNAPSHOTS"] == "1"
    guard !record, let reference = try? String(contentsOf: file, encoding: .utf8) else {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try (text + "\n").write(to: file, atomically: true, encoding: .utf8)
        if !record { Issue.record("recorded \(file.lastPathComponent): review it and run the tests again") }
        return
    }
    #expect(text + "\n" == reference, "\(name) differs from its reference frame")
}
