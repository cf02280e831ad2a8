import Foundation

/// A newest-first list of readings that loads the next page back when the selection moves past its end:
/// the Weights and HRV tables. The moving is written once here; each model says what its rows are and how
/// it loads older ones.
@MainActor
protocol PagedReadingList: AnyObject {
    var rowCount: Int { get }
    var selection: Int { get set }
    var hasOlder: Bool { get }
    var isLoadingOlder: Bool { get }
    /// Loads the next page back, then selects row `select` of the longer list.
    func loadOlderPage(thenSelect select: Int) -> Command
    /// Loads the next page back, then does `next`.
    func loadOlderPage(then next: @escaping @MainActor () -> Command) -> Command
    /// What row `index` shows, for `/` to look in.
    func rowText(_ index: Int) -> String
    /// When the reading of row `index` was taken, for a jump to a day.
    func rowDate(_ index: Int) -> Date
    var calendar: Calendar { get }
    /// Shows `problem` where the screen's problems show (a search that found nothing).
    func say(_ problem: String)
}

extension PagedReadingList {
    /// Moves the selection; moving past the last row loads older readings and moves on into them.
    func movingSelection(by delta: Int) -> Command {
        guard rowCount > 0 else { return .none }
        let target = selection + delta
        selection = min(max(target, 0), rowCount - 1)
        if target >= rowCount && hasOlder && !isLoadingOlder {
            return loadOlderPage(thenSelect: target)
        }
        return .none
    }
}
