import Foundation
import HealthModel

/// What `/` and the jump to a date look for in a newest-first table (Weights, HRV).
public enum TableSeek: Sendable, Equatable {
    /// The next row, below the selection, that shows this text (any case); past the last row it looks on from
    /// the top, as a pager's search does.
    case text(String)
    /// The newest row on or before this day: the day itself, or the nearest before it when it has none.
    case day(Day)

    /// What a person typed after `t`: a date as the prompts take it ("2026-11-20", "2026-11-3", "yesterday",
    /// "today"); nil for anything else.
    public static func day(typed text: String, today: Day) -> TableSeek? {
        TypedTime.day(text.trimmingCharacters(in: .whitespaces), today: today).map(TableSeek.day)
    }
}

extension PagedReadingList {
    /// Selects the row `seek` names, loading older pages until one is found or none is left; says so when
    /// there is none (`noun`: "weigh-in", "measurement").
    func seeking(_ seek: TableSeek, noun: String) -> Command {
        switch seek {
        case .text(let text):
            let wanted = text.trimmingCharacters(in: .whitespaces)
            guard !wanted.isEmpty else { return .none }
            let from = selection
            return scanning(from: from + 1, wrapsTo: from,
                            matches: { [unowned self] in self.rowText($0).localizedCaseInsensitiveContains(wanted) },
                            notFound: "no \(noun) shows \"\(wanted)\"")
        case .day(let day):
            let end = day.adding(days: 1).start(in: calendar)
            return scanning(from: 0, wrapsTo: nil, matches: { [unowned self] in self.rowDate($0) < end },
                            notFound: "no \(noun) on or before \(day)")
        }
    }

    /// Looks at rows `start…` (loading older pages when they run out), then, with `wrapsTo`, at rows from the
    /// top up to and including that one.
    private func scanning(from start: Int, wrapsTo last: Int?, matches: @escaping @MainActor (Int) -> Bool,
                          notFound: String) -> Command {
        if start < rowCount, let found = (start..<rowCount).first(where: matches) {
            selection = found
            return .none
        }
        if hasOlder && !isLoadingOlder {
            let scanned = rowCount
            return loadOlderPage(then: { [weak self] in
                self?.scanning(from: scanned, wrapsTo: last, matches: matches, notFound: notFound) ?? .none
            })
        }
        if let last, rowCount > 0, let found = (0...min(last, rowCount - 1)).first(where: matches) {
            selection = found
            return .none
        }
        say(notFound)
        return .none
    }
}

extension WeightsModel {
    /// `/` and the jump to a date on the weights table.
    public func seek(_ seek: TableSeek) -> Command { seeking(seek, noun: "weigh-in") }
}

extension HRVModel {
    /// `/` and the jump to a date on the measurements.
    public func seek(_ seek: TableSeek) -> Command { seeking(seek, noun: "measurement") }
}
