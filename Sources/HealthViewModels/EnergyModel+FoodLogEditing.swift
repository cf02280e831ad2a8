import Foundation
import HealthCore
import HealthModel

/// Correcting and deleting the day's food log entries on the energy screen, with the keys of every table
/// screen: ↑/↓ pick an entry, `e` corrects it (the amount, then what it was), `d` deletes it after a y/n
/// question. Changes go through the service, checked as a new entry is, and the day's figures reload.
extension EnergyModel {
    /// The entry `e` and `d` act on, if the day has any.
    public var selectedFoodEntry: FoodEntry? {
        selectedEntry.flatMap { foodEntries.indices.contains($0) ? foodEntries[$0] : nil }
    }

    /// ↑/↓: moves the selection through the day's entries (↑ to earlier ones) and shows the food log.
    public func moveEntry(by delta: Int) {
        guard !foodEntries.isEmpty else {
            problem = "no food logged on this day: a logs a meal"
            return
        }
        isBrowsingFoodLog = true
        selectedEntry = min(max((selectedEntry ?? foodEntries.count - 1) + delta, 0), foodEntries.count - 1)
    }

    /// `e`: opens the prompt on the selected entry's amount; Enter asks what it was, starting from what it said.
    public func openEditPrompt() {
        guard let entry = selectedFoodEntry else {
            problem = "no food logged on this day to correct: a logs a meal"
            return
        }
        isBrowsingFoodLog = true
        deleting = nil
        editingEntry = entry
        pendingKcal = nil
        pendingTime = nil
        prompt = TextField(label: "Energy in \(unit.rawValue) of \(entry.what) at \(entry.time)", text: entry.typedEnergy, limit: 40,
                           hint: "a new time may follow: 13:00")
        problem = nil
    }

    /// `d`: asks whether to delete the selected entry (the screen shows the question; y/n answers it).
    public func askToDelete() {
        guard prompt == nil else { return }
        guard let entry = selectedFoodEntry else {
            problem = "no food logged on this day to delete"
            return
        }
        isBrowsingFoodLog = true
        deleting = (entry.id, "Delete \(entry.what), \(entry.energy) at \(entry.time)? y/n")
        problem = nil
    }

    public func cancelDelete() { deleting = nil }

    /// Deletes the entry the question named; the day's consumed and net lose it with the reload.
    public func confirmDelete() -> Command {
        guard let id = deleting?.id else { return .none }
        deleting = nil
        return writes.delete(reading: id, from: service, deleted: { [weak self] in
            self?.refresh() ?? .none
        }, failed: { [weak self] in self?.problem = $0 })
    }

    /// Saves a corrected entry: the amount, and the description when one is typed (an empty one keeps it,
    /// since a stored description cannot be set to nothing through a correction).
    func saveCorrection(of entry: FoodEntry, kcal: Double, description: String, at time: Date?) -> Command {
        var data: [String: FieldValue] = [Field.calories: .number(kcal)]
        if !description.isEmpty { data[Field.comments] = .text(description) }
        return writes.edit(reading: entry.id, ReadingChange(ts: time?.millisecondsSince1970, data: data), in: service,
                           saved: { [weak self] in
            guard let self else { return .none }
            cancelPrompt()
            return refresh()
        }, failed: { [weak self] in self?.problem = $0 })
    }

    /// After a reload: the same entry stays selected when it is still there, else the newest.
    func keepSelection(on id: String?) {
        if let id, let index = foodEntries.firstIndex(where: { $0.id == id }) {
            selectedEntry = index
        } else {
            selectedEntry = foodEntries.isEmpty ? nil : foodEntries.count - 1
        }
    }
}
