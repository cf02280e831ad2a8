import Foundation
import HMonTUI
import HealthViewModels
import Terminal
import Testing

/// Every screen at the minimum size, 80×24, 120×40 and 200×60, compared with reviewed reference frames in
/// `__Snapshots__/`: the text (`NAME.txt`) and every cell's colour role (`NAME.styles.txt`, see
/// `ReferenceFrames`). A missing reference is written and the test fails so that someone looks at it;
/// `HMON_RECORD_SNAPSHOTS=1` rewrites them all after an intended change.
@MainActor
struct ScreenSnapshotTests {
    nonisolated static let sizes = [Size(width: 60, height: 16), Size(width: 80, height: 24), Size(width: 120, height: 40),
                                    Size(width: 200, height: 60)]

    /// Every registered screen, the sign-in form and the help overlay: a screen added to the registry is
    /// covered here without another line.
    @Test(arguments: ScreenRegistry.snapshotNames, sizes)
    func screenMatchesItsReviewedFrame(screen: String, size: Size) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard(signedIn: screen != ScreenID.signIn.rawValue)
        let canvas = await dashboard.snapshot(of: screen, size: size)
        try expectSnapshot(canvas, named: "\(screen)-\(size.width)x\(size.height)")
    }

    /// The styles reference is what holds the colours: a change of colour role alone (a fall shown as bad
    /// instead of good, a row that loses its selection highlight) leaves the text reference matching and the
    /// styles reference not. Read-only: it never records, so the references stay as reviewed.
    @Test func aChangedColourRoleFailsTheStylesReferenceAndNotTheTextOne() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        let name = "weights-80x24"
        let folder = ReferenceFrames.folder(sourceFile: #filePath)
        let referenceText = try String(contentsOf: folder.appendingPathComponent("\(name).txt"), encoding: .utf8)
        let referenceStyles = try String(contentsOf: folder.appendingPathComponent("\(name).styles.txt"), encoding: .utf8)

        for (from, to) in [(Role.good, Role.bad), (Role.selection, Role.text)] {
            let canvas = await dashboard.snapshot(of: "weights", size: size)
            #expect(ReferenceFrames.contents(of: canvas) == (referenceText, referenceStyles), "as drawn, the frame matches")

            // Redraw one cell of role `from` with the same character in role `to`.
            let cells = (0..<size.height).flatMap { y in (0..<size.width).map { Point(x: $0, y: y) } }
            let point = try #require(cells.first { canvas.cell(at: $0)?.style.role == from && canvas.cell(at: $0)?.width == 1 },
                                     "the weights frame has a \(from) cell")
            let cell = try #require(canvas.cell(at: point))
            canvas.text(String(cell.character), at: point, style: Style(to, bold: cell.style.bold,
                        underline: cell.style.underline, reverse: cell.style.reverse), maxWidth: 1)

            let (text, styles) = ReferenceFrames.contents(of: canvas)
            #expect(text == referenceText, "\(from) → \(to) keeps the text")
            #expect(styles != referenceStyles, "\(from) → \(to) at \(point) shows in the styles reference")
        }
    }

    @Test func everyFrameFitsItsSizeAndLeavesNoEmptyRowsAtTheEdges() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        for size in Self.sizes {
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
