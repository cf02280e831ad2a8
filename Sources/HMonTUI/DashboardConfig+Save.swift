import Foundation
import HealthCore

extension DashboardConfig {
    /// Saves the theme `T` switched to, so the next launch opens in it: the `theme = …` line of the file is
    /// replaced (its comment kept) or added before the first table, and every other line stays as the person
    /// wrote it. Written through `AtomicFile`, so a crash never leaves half a file.
    public static func save(theme: String, to file: URL) throws {
        let manager = FileManager.default
        var text = ""
        if manager.fileExists(atPath: file.path) {
            let data = try Data(contentsOf: file)
            guard let existing = String(data: data, encoding: .utf8) else {
                throw Problem(description: "\(file.path): is not UTF-8 text, so the theme was not saved in it")
            }
            text = existing
        }
        let updated = settingTheme(theme, in: text)
        try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(Data(updated.utf8), to: file)
    }

    /// `text` with its top-level `theme` set to `name`.
    static func settingTheme(_ name: String, in text: String) -> String {
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let assignment = "theme = \"\(escaped)\""
        var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let firstTable = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[") } ?? lines.count
        if let index = lines[..<firstTable].firstIndex(where: isThemeLine) {
            // Keep a comment written after the value: `theme = "nord"  # dark rooms`.
            let comment = lines[index].range(of: "#", options: .backwards).map { String(lines[index][$0.lowerBound...]) }
            let quoted = lines[index].filter { $0 == "\"" }.count
            let keepComment = comment.map { _ in quoted % 2 == 0 } ?? false
            lines[index] = keepComment ? "\(assignment)  \(comment!)" : assignment
        } else {
            lines.insert(assignment, at: firstTable)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func isThemeLine(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("theme") else { return false }
        return trimmed.dropFirst("theme".count).trimmingCharacters(in: .whitespaces).hasPrefix("=")
    }
}
