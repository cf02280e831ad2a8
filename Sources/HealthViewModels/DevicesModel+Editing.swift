import Foundation
import HealthCore
import HealthModel

/// Renaming and deleting devices on the devices screen, with the keys of every table screen: `e` renames
/// the selected device, `d` deletes it after a question, and when it holds readings a second question says
/// how many go with it, as `hmon device delete` does.
extension DevicesModel {
    /// `e`: a prompt holding the selected device's name.
    public func openRename() {
        guard let row = selectedRow else { return }
        deleting = nil
        renaming = (row.id, TextField(label: "New name for \(row.name)", text: row.name, limit: 60))
        problem = nil
    }

    public func cancelRename() { renaming = nil }
    public func renameType(_ character: Character) { renaming?.field.insert(character) }
    public func renameEdit(_ edit: TextEdit) { renaming?.field.apply(edit) }

    /// Saves the new name; the service refuses an empty or taken one, and the prompt stays open to fix it.
    public func submitRename() -> Command {
        guard let (id, field) = renaming else { return .none }
        let name = field.text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            problem = "a device needs a name"
            return .none
        }
        let service = service
        return Command(writes.write("rename \(id)") {
            try await service.renameDevice(id: id, to: name)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let device):
                renaming = nil
                notice = "renamed it \(device.name)"
                return refresh()
            case .failure(let error):
                problem = describe(error)
                return .none
            }
        })
    }

    /// `d`: asks whether to delete the selected device.
    public func askToDelete() {
        guard let row = selectedRow, renaming == nil else { return }
        deleting = (row.id, "Delete \(row.name)? y/n", false)
        problem = nil
    }

    public func cancelDelete() { deleting = nil }

    /// y to the question. A device without readings goes at once; one with readings is kept and a second
    /// question names how many would go with it (counted by the store, so the number is what a delete takes).
    public func confirmDelete() -> Command {
        guard let (id, _, withReadings) = deleting else { return .none }
        let name = devices.first { $0.id == id }?.name ?? id
        deleting = nil
        let service = service
        return Command(writes.write("delete \(id)") {
            try await service.deleteDevice(id: id, withReadings: withReadings)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let outcome) where outcome.deleted:
                notice = outcome.readings == 0 ? "deleted \(name) (it had no readings)"
                    : "deleted \(name) and its \(outcome.readings) readings"
                return refresh()
            case .success(let outcome):
                deleting = (id, "\(name) has \(outcome.readings) readings: delete them with it? They cannot be brought back. y/n", true)
                return .none
            case .failure(let error):
                problem = describe(error)
                return .none
            }
        })
    }
}
