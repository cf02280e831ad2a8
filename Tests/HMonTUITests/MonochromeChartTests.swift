import Foundation
@testable import HMonTUI
import HealthViewModels
@testable import Terminal
import Testing

/// Without colour (NO_COLOR, `--no-color`, a monochrome terminal) only attributes and position carry
/// meaning: the trend must still stand apart from the weigh-ins, and a deficit from a surplus.
@MainActor
struct MonochromeChartTests {
    private let mono = Palette(theme: .builtInDefault, depth: .monochrome)

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func theTrendAndTheWeighInsLookDifferentWithoutColour(size: Size) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let frame = await dashboard.snapshot(of: "weights", size: size)
        var looks: [Role: Set<String>] = [:]
        for y in 0..<size.height {
            for x in 0..<size.width {
                guard let cell = frame.cell(at: Point(x: x, y: y)),
                      let scalar = cell.character.unicodeScalars.first, (0x2801...0x28FF).contains(scalar.value) else { continue }
                let look = "pair \(mono.pairNumber(for: cell.style.role)) attributes \(mono.attributes(for: cell.style))"
                looks[cell.style.role, default: []].insert(look)
            }
        }
        let trend = try #require(looks[.graph], "the trend line is drawn")
        let weighIns = try #require(looks[.accent], "the weigh-ins are drawn")
        #expect(trend.isDisjoint(with: weighIns), "in monochrome the trend is \(trend), the weigh-ins \(weighIns)")
    }

    @Test func theHRVBaselineBandIsMarkedApartFromTheLineWithoutColour() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let frame = await dashboard.snapshot(of: "hrv", size: Size(width: 120, height: 40))
        // The demo's band is "normal 43.6–52.0 ms", said above the chart; its edges are dotted lines across it.
        let text = (0..<40).map { frame.line($0) }
        #expect(text.contains { $0.contains("normal 43.6–52.0 ms") })
        let axisRows = text.indices.filter { text[$0].contains("┤") }
        let first = try #require(axisRows.first, "the chart's axis")
        let plot = text[first].range(of: "┤").map { text[first].distance(from: text[first].startIndex, to: $0.lowerBound) + 1 } ?? 0
        func isBraille(_ x: Int, _ y: Int) -> Bool {
            frame.cell(at: Point(x: x, y: y))?.character.unicodeScalars.first.map { (0x2801...0x28FF).contains($0.value) } ?? false
        }
        // A band edge carries a dot in every cell it crosses: the rows drawn all the way along are its edges.
        let edges = axisRows.filter { y in (plot..<(plot + 100)).allSatisfy { isBraille($0, y) } }
        #expect(!edges.isEmpty, "a band edge dotted all along the chart")
        var looks: [Role: Set<String>] = [:]
        for y in edges {
            for x in plot..<(plot + 100) {
                guard let cell = frame.cell(at: Point(x: x, y: y)) else { continue }
                looks[cell.style.role, default: []].insert("pair \(mono.pairNumber(for: cell.style.role)) attributes \(mono.attributes(for: cell.style))")
            }
        }
        let band = try #require(looks[.dim], "the band is drawn")
        let line = try #require(looks[.graph], "the RMSSD line crosses the band")
        #expect(band.isDisjoint(with: line), "in monochrome the band is \(band), the line \(line)")
    }

    @Test func aDeficitAndASurplusStandOnEitherSideOfTheAxis() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let frame = await dashboard.snapshot(of: "energy", size: Size(width: 120, height: 40))
        // The demo week: Sat Nov 14 is a deficit of 200 kcal, Mon Nov 16 a surplus of 391.
        func bars(of day: String) throws -> (left: Int, right: Int) {
            let y = try #require((0..<40).first { frame.line($0).contains(day) }, "\(day) is listed")
            let line = Array(frame.line(y))
            let axis = try #require(line.firstIndex(of: "│", after: 3), "the zero axis is drawn on \(day)'s row")
            return (line[..<axis].filter { $0 == "▆" }.count, line[(axis + 1)...].filter { $0 == "▆" }.count)
        }
        let saturday = try bars(of: "Sat Nov 14"), monday = try bars(of: "Mon Nov 16")
        #expect(saturday.left > 0 && saturday.right == 0, "a deficit grows left of zero")
        #expect(monday.right > 0 && monday.left == 0, "a surplus grows right of zero")
    }
}

private extension Array where Element == Character {
    /// The first index of `character` after the first `skip` elements (past the panel's own border).
    func firstIndex(of character: Character, after skip: Int) -> Int? {
        indices.dropFirst(skip).first { self[$0] == character }
    }
}
