import Foundation
import Terminal
import Testing

/// The reviewed reference frames in `__Snapshots__/` next to this file, read and written by #filePath
/// (Package.swift excludes the folder from the target: they are not resources).
/// A frame is two files: `NAME.txt`, the text a person reads, and `NAME.styles.txt`, the same text with
/// every run of cells marked by its colour role and attributes (`GridCanvas.renderStyled(attributes: true)`:
/// `[bad+bold]▼ 0.6 kg[/]`). The second is what catches `good` and `bad` swapped or a lost selection
/// highlight, which leave the text as it was.
enum ReferenceFrames {
    /// Whether to rewrite every reference from the frames drawn now (`HMON_RECORD_SNAPSHOTS=1`).
    static var isRecording: Bool { ProcessInfo.processInfo.environment["HMON_RECORD_SNAPSHOTS"] == "1" }

    static func folder(sourceFile: String) -> URL {
        URL(fileURLWithPath: sourceFile).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    }

    /// The text file and the styles file of a frame, as the references hold them.
    static func contents(of canvas: GridCanvas) -> (text: String, styles: String) {
        // The demo store's folder has random letters; every frame that shows it shows them masked.
        (DemoWorld.stable(canvas.renderPlain()) + "\n", DemoWorld.stable(canvas.renderStyled(attributes: true)) + "\n")
    }

    /// Where `drawn` and `reference` first differ, as a person would look for it: "line 9: …".
    static func firstDifference(_ drawn: String, _ reference: String) -> String {
        let drawnLines = drawn.split(separator: "\n", omittingEmptySubsequences: false)
        let referenceLines = reference.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(drawnLines.count, referenceLines.count) {
            let now = index < drawnLines.count ? String(drawnLines[index]) : "(no line)"
            let was = index < referenceLines.count ? String(referenceLines[index]) : "(no line)"
            if now != was { return "line \(index + 1):\n  drawn:     \(now)\n  reference: \(was)" }
        }
        return "no line differs"
    }

    /// Compares `content` with the reference file `fileName`; a missing reference (or recording) writes it,
    /// and a missing one also fails the test so that someone reviews it.
    static func expect(_ content: String, matchesFile fileName: String, what: String, sourceFile: String,
                       sourceLocation: SourceLocation) throws {
        let folder = folder(sourceFile: sourceFile)
        let file = folder.appendingPathComponent(fileName)
        guard !isRecording, let reference = try? String(contentsOf: file, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try content.write(to: file, atomically: true, encoding: .utf8)
            if !isRecording {
                Issue.record("recorded \(fileName): review it and run the tests again", sourceLocation: sourceLocation)
            }
            return
        }
        // The first differing line says more than two whole frames side by side.
        let matches = content == reference
        #expect(matches, "\(what) differs from \(fileName) at \(firstDifference(content, reference))",
                sourceLocation: sourceLocation)
    }
}

/// Compares a drawn frame with its reviewed reference: its text with `__Snapshots__/NAME.txt` and the colour
/// role and attributes of every cell with `__Snapshots__/NAME.styles.txt` (see `ReferenceFrames`).
func expectSnapshot(_ canvas: GridCanvas, named name: String, sourceFile: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (text, styles) = ReferenceFrames.contents(of: canvas)
    try ReferenceFrames.expect(text, matchesFile: "\(name).txt", what: "the text of \(name)",
                               sourceFile: sourceFile, sourceLocation: sourceLocation)
    try ReferenceFrames.expect(styles, matchesFile: "\(name).styles.txt", what: "the colours of \(name)",
                               sourceFile: sourceFile, sourceLocation: sourceLocation)
}

/// Compares `text` with `__Snapshots__/NAME.txt` only: for a frame that is text alone (`hmon snapshot`'s
/// output). Pass the `GridCanvas` instead wherever there is one, so that the colours are held too.
func expectSnapshot(_ text: String, named name: String, sourceFile: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
    try ReferenceFrames.expect(text + "\n", matchesFile: "\(name).txt", what: "the text of \(name)",
                               sourceFile: sourceFile, sourceLocation: sourceLocation)
}
