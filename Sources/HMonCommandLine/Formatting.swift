import Foundation

/// Numbers and tables as the command line prints them.
public enum Formatting {
    /// 72.4, 650, 1320.3: at most `decimals` decimals, no trailing zeros, never "-0".
    public static func number(_ value: Double, decimals: Int = 1) -> String {
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A figure for a person to read, with the screens' thousands separators: 8952 → "8,952", 1320.35 →
    /// "1,320.4" (`number`'s decimals). Never for a file or JSON a program reads.
    public static func figure(_ value: Double, decimals: Int = 1) -> String {
        let text = number(value, decimals: decimals)
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let parts = body.split(separator: ".", maxSplits: 1)
        guard let whole = Int(parts[0]) else { return text }
        return (negative ? "-" : "") + grouped(whole) + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// `1234567` → `1,234,567`.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// Left-aligned columns separated by two spaces.
    public static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
