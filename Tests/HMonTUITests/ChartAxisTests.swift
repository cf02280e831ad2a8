import Foundation
import HMonTUI
import Terminal
import Testing

/// Issue 28, item 1: the charts read right at every size. Each frame's y-axis is parsed back from the text:
/// a chart is at least five rows tall wherever it is shown, its labels are evenly spaced round numbers each
/// on its own row, and every braille dot of the plot lies between the top and bottom labels.
@MainActor
struct ChartAxisTests {
    struct Axis {
        /// (row, value) of each label, top first.
        var labels: [(row: Int, value: Double)]
        /// The rows of the plot (the rows with a tick or the rule beside them).
        var rows: ClosedRange<Int>
        /// The column of the rule; the plot starts right of it.
        var rule: Int
    }

    /// The first chart's axis in the frame: the run of rows whose rule sits in one column (`┤` or `│`
    /// right after a label's column), ending at the corner `└`.
    static func axis(in lines: [String]) -> Axis? {
        let grid = lines.map { Array($0) }
        guard let first = grid.firstIndex(where: { $0.contains("┤") }),
              let rule = grid[first].firstIndex(of: "┤") else { return nil }
        var labels: [(Int, Double)] = []
        var row = first
        while row < grid.count, rule < grid[row].count, grid[row][rule] == "┤" || grid[row][rule] == "│" {
            if grid[row][rule] == "┤" {
                let text = String(grid[row][..<rule]).split(separator: " ").last.map(String.init) ?? ""
                guard let value = Double(text) else { return nil }
                labels.append((row, value))
            }
            row += 1
        }
        guard row < grid.count, rule < grid[row].count, grid[row][rule] == "└" else { return nil }
        return Axis(labels: labels, rows: first...(row - 1), rule: rule)
    }

    static func isBraille(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { (0x2801...0x28FF).contains($0.value) } ?? false
    }

    @Test(arguments: ["weights", "hrv"], ScreenSnapshotTests.sizes)
    func everyChartHasFiveRowsAndEvenRoundLabelsAroundItsDots(screen: String, size: Size) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let lines = await dashboard.snapshot(of: screen, size: size).renderPlain().components(separatedBy: "\n")
        let found = Self.axis(in: lines)
        if size.height >= 24 { #expect(found != nil, "a chart at \(size):\n\(lines.joined(separator: "\n"))") }
        guard let axis = found else {
            // Too short for a chart: the weights give a sparkline of the trend instead; HRV shows its figures.
            if screen == "weights" {
                #expect(lines.contains { $0.contains("▁") || $0.contains("█") }, "a sparkline where no chart fits:\n\(lines.joined(separator: "\n"))")
            }
            return
        }
        let frame = lines.joined(separator: "\n")
        #expect(axis.rows.count >= 5, "a chart of \(axis.rows.count) rows:\n\(frame)")
        #expect(axis.labels.count >= 2)
        #expect(axis.labels.first?.row == axis.rows.lowerBound && axis.labels.last?.row == axis.rows.upperBound,
                "the top and bottom rows are labelled:\n\(frame)")
        let rowGaps = Set(zip(axis.labels, axis.labels.dropFirst()).map { $1.row - $0.row })
        let valueSteps = zip(axis.labels, axis.labels.dropFirst()).map { $0.value - $1.value }
        #expect(rowGaps.count == 1, "labels evenly spaced in rows: \(axis.labels)")
        let step = try #require(valueSteps.first)
        #expect(valueSteps.allSatisfy { abs($0 - step) < 1e-9 }, "labels evenly spaced in value: \(axis.labels)")
        // Round: 1, 2 or 5 times a power of ten.
        let mantissa = step / pow(10, floor(log10(step)))
        #expect([1.0, 2, 5].contains { abs(mantissa - $0) < 1e-6 }, "a round step: \(step)")
        // No dot above the top label's row or below the bottom one's.
        let grid = lines.map { Array($0) }
        for (row, line) in grid.enumerated() where !axis.rows.contains(row) {
            let plotPart = line.count > axis.rule + 1 ? line[(axis.rule + 1)...] : []
            guard abs(row - axis.rows.lowerBound) <= 1 || abs(row - axis.rows.upperBound) <= 1 else { continue }
            #expect(!plotPart.contains(where: Self.isBraille), "a dot outside the labels in row \(row):\n\(frame)")
        }
    }
}
