import Foundation
import HealthCore
import HealthModel

/// One line of the user card: "Email  tuser@example.com".
public struct InfoLine: Sendable, Equatable {
    public var label: String
    public var value: String
}

/// A device as the devices table shows it.
public struct DeviceRow: Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var typeName: String
    /// "72.4 kg" or "650 kcal · 320 kcal active"; "no readings yet".
    public var lastReading: String
    /// "Nov 20, 2026 07:30", empty when there is no reading.
    public var lastWhen: String
    /// "2 h ago", empty when there is no reading.
    public var lastAge: String
    /// "48 today": how many readings it sent since midnight, so a phone or a watch that stopped sending
    /// shows at a glance; "none today" when it sent nothing today.
    public var today: String = ""
    /// The manifest has a `weight` field: Enter opens the weights.
    public var canSeeWeight: Bool
    /// Why "See weight" is disabled: "Activity Tracker readings carry no weight".
    public var seeWeightReason: String?
}

/// One of the user's links as the Devices screen shows it (the sync doctor's line): its kind and its state,
/// judged by the dashboard's clock at the last load.
public struct LinkLine: Sendable, Equatable {
    public var kind: String
    /// "3 h ago · Weight 7, Steps 7", "SILENT for 2 days".
    public var state: String
    public var silent: Bool
}

/// One recent reading of the selected device: "Nov 20, 2026 07:58" and "weight 69.3 kg · fat ratio 22 %".
public struct ReadingLine: Sendable, Equatable {
    public var when: String
    public var values: String
}

/// The "you and your devices" screen: the signed-in user's card and their devices.
@MainActor
public final class DevicesModel {
    public private(set) var userLines: [InfoLine] = []
    public private(set) var rows: [DeviceRow] = []
    public private(set) var selectedIndex = 0
    /// True while a load or a write of this screen runs.
    public var isRefreshing: Bool { loads.isRunning || recentLoads.isRunning || writes.isRunning }
    public internal(set) var problem: String?
    public private(set) var lastUpdated: Date?
    /// The device types a new device can have, for the add-device picker.
    public private(set) var deviceTypes: [DeviceType] = []
    /// The latest readings of the selected device, newest first, with every field.
    public private(set) var recent: [ReadingLine] = []
    /// The user's links, of every kind (pushed to and pulled), oldest first.
    public private(set) var links: [LinkLine] = []
    /// Which device `recent` belongs to.
    public private(set) var recentDeviceID: String?
    /// The add-device form, when open.
    public internal(set) var adding: AddDeviceForm?
    /// A device just added, to select once the list has reloaded.
    var pendingSelection: String?
    /// The open rename prompt (`e`) and the device it renames.
    public internal(set) var renaming: (id: String, field: TextField)?
    /// The open y/n question (`d`): the device, the question, and whether yes deletes its readings too.
    public internal(set) var deleting: (id: String, question: String, withReadings: Bool)?
    /// Something done that the person should hear of once ("deleted Old scale and its 12 readings").
    public var notice: String?
    /// What to do once the next overview is loaded (open a screen on a device just made for it).
    private var afterNextLoad: (@MainActor () -> Command)?

    /// Devices and manifests as last loaded, for the other screens.
    public private(set) var devices: [Device] = []
    public private(set) var manifests: [String: Manifest] = [:]
    public private(set) var typeNames: [String: String] = [:]
    /// The person's units, from the profile loaded with the devices: readings show in them.
    public private(set) var units = DisplayUnits.stored

    let service: any HealthService
    private let clock: Clock
    let loads = LoadSlot(model: "devices")
    private let recentLoads = LoadSlot(model: "devices.recent")
    let writes = WriteSlot(model: "devices")

    public init(service: any HealthService, clock: Clock) {
        self.service = service
        self.clock = clock
    }

    public var selectedRow: DeviceRow? { rows.indices.contains(selectedIndex) ? rows[selectedIndex] : nil }
    public var selectedDevice: Device? { devices.first { $0.id == selectedRow?.id } }
    public var isEmpty: Bool { rows.isEmpty }

    /// The first device whose readings carry a weight (the scale), for Tab to weights without a choice.
    public var firstWeightDevice: Device? { defaultScale }

    /// The person's default scale: their oldest device that records weight. The Weights screen's `a`,
    /// `hmon add weight` and an import of weigh-ins all save to it, so one person's weigh-ins stay on one
    /// scale unless they name another.
    public var defaultScale: Device? {
        devices.first(recording: Field.weight, manifests: manifests)
    }

    /// The first device whose readings carry consumed energy (the food log), where `a` on the energy screen writes.
    public var firstFoodLog: Device? {
        devices.first(recording: Field.calories, manifests: manifests)
    }

    public func manifest(of device: Device) -> Manifest? { manifests[device.dtid] }
    public func typeName(of device: Device) -> String { typeNames[device.dtid] ?? device.dtid }

    public func moveSelection(by delta: Int) {
        guard !rows.isEmpty else { return }
        selectedIndex = min(max(selectedIndex + delta, 0), rows.count - 1)
    }

    public func select(deviceID: String) {
        if let i = rows.firstIndex(where: { $0.id == deviceID }) { selectedIndex = i }
    }

    /// Reloads the user card and the devices with their last readings, then the selected device's
    /// recent readings. A failure sets `problem` and keeps what was on screen.
    public func refresh() -> Command {
        let service = service
        let ask = DevicesScreenData.Ask(since: clock.today.start(in: clock.calendar), recentDevice: pendingSelection ?? selectedRow?.id)
        return Command(loads.load("overview") {
            try await service.devicesScreen(ask)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let screen):
                units = DisplayUnits(screen.profile)
                todayCounts = screen.todayCounts
                let now = clock.now()
                links = screen.links.map { LinkLine(kind: $0.kind, state: $0.stateText(now: now), silent: $0.isSilent(now: now)) }
                let overview = screen.overview
                apply(user: overview.user, devices: overview.devices, types: overview.deviceTypes,
                      manifests: overview.manifests, last: overview.latestReadings)
                problem = nil
                lastUpdated = clock.now()
                let next = afterNextLoad
                afterNextLoad = nil
                // The screen came with the newest readings of the device it guessed would be selected.
                let recentCommand: Command
                if let device = selectedDevice, device.id == screen.recentDevice {
                    showRecent(screen.recent, of: device)
                    recentCommand = .none
                } else {
                    recentCommand = loadRecent()
                }
                return recentCommand + (next?() ?? .none)
            case .failure(let error):
                problem = describe(error)
                return .none
            }
        })
    }

    private func apply(user: User, devices: [Device], types: [DeviceType], manifests: [String: Manifest],
                       last: [String: Message]) {
        let formats = Formats(calendar: clock.calendar)
        userLines = [
            InfoLine(label: "ID", value: user.id),
            InfoLine(label: "Name", value: user.name),
            InfoLine(label: "Full name", value: user.fullName.isEmpty ? "—" : user.fullName),
            InfoLine(label: "Email", value: user.email.isEmpty ? "—" : user.email),
            InfoLine(label: "Created", value: formats.dateTime(user.createdOn)),
            InfoLine(label: "Modified", value: formats.dateTime(user.modifiedOn)),
        ]
        let previousID = pendingSelection ?? selectedRow?.id
        pendingSelection = nil
        self.devices = devices
        self.manifests = manifests
        self.deviceTypes = types
        self.typeNames = Dictionary(types.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let now = clock.now()
        lastReadingDates = last.compactMapValues { $0.date }
        rows = devices.map { device in
            let manifest = manifests[device.dtid] ?? Manifest(fields: [])
            let typeName = typeNames[device.dtid] ?? device.dtid
            let message = last[device.id]
            return DeviceRow(
                id: device.id,
                name: device.name,
                typeName: typeName,
                lastReading: message.map { Self.summary(of: $0, manifest: manifest, units: units) } ?? "no readings yet",
                lastWhen: message.map { formats.dateTime($0.date) } ?? "",
                lastAge: message.map { formats.age(of: $0.date, now: now) } ?? "",
                today: Self.todayText(todayCounts[device.id] ?? 0),
                canSeeWeight: manifest.hasWeight,
                seeWeightReason: manifest.hasWeight ? nil : "\(typeName) readings carry no weight")
        }
        if let previousID, let i = rows.firstIndex(where: { $0.id == previousID }) {
            selectedIndex = i
        } else {
            selectedIndex = min(selectedIndex, max(rows.count - 1, 0))
        }
    }

    /// Readings since midnight, by device id (a device sending every minute sends 1,440 a day; a runaway
    /// one's count past the cap reads "20,000+").
    private var todayCounts: [String: Int] = [:]
    static let todayCap = DevicesScreenData.todayCap

    /// When each device's last reading was taken, so its age can move on without a reload.
    private var lastReadingDates: [String: Date] = [:]

    /// Brings "5 min ago" up to now; the dashboard calls it once a second, and rows whose text is
    /// unchanged stay as they are (so an unchanged frame writes nothing to the terminal).
    public func updateAges() {
        let formats = Formats(calendar: clock.calendar)
        let now = clock.now()
        for index in rows.indices {
            guard let date = lastReadingDates[rows[index].id] else { continue }
            let age = formats.age(of: date, now: now)
            if rows[index].lastAge != age { rows[index].lastAge = age }
        }
    }

    /// Loads the latest readings of the selected device (for the panel under the list). Moving on quickly
    /// cancels the load for the device left behind.
    public func loadRecent(count: Int = 12) -> Command {
        guard let device = selectedDevice else {
            recent = []
            recentDeviceID = nil
            return .none
        }
        let service = service
        return Command(recentLoads.load("recent of \(device.id)") {
            try await service.lastMessages(device: device.id, count: count, field: nil)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let messages):
                showRecent(messages, of: device)
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    private func showRecent(_ messages: [Message], of device: Device) {
        let manifest = manifests[device.dtid] ?? Manifest(fields: [])
        let formats = Formats(calendar: clock.calendar)
        recent = messages.map { message in
            ReadingLine(when: formats.dateTime(message.date),
                        values: FieldText.parts(of: message, manifest: manifest, units: units).joined(separator: " · "))
        }
        recentDeviceID = device.id
    }

    /// The reading in a few words: the weight for a scale, else the first two fields in manifest order.
    static func summary(of message: Message, manifest: Manifest, units: DisplayUnits = .stored) -> String {
        if manifest.hasWeight, let weight = message.data[Field.weight] {
            return FieldText.quantity(weight, unit: manifest.field(Field.weight)?.unit ?? "kg", units: units)
        }
        var parts: [String] = []
        for field in manifest.fields where !FieldText.hidden.contains(field.name) {
            guard let value = message.data[field.name] else { continue }
            if let short = Self.shortNames[field.name] {
                parts.append("\(FieldText.quantity(value, unit: field.unit, units: units)) \(short)")
            } else {
                parts.append(FieldText.text(of: field.name, value: value, unit: field.unit, units: units))
            }
            if parts.count == 2 { break }
        }
        if parts.isEmpty {
            parts = Array(FieldText.parts(of: message, manifest: manifest, units: units).prefix(2))
        }
        return parts.joined(separator: " · ")
    }

    /// How the devices table names the fields hmon reads: "320 kcal active".
    static let shortNames = [Field.activeEnergy: "active", Field.calories: "eaten", Field.basalEnergy: "resting", "steps": "steps"]

    /// Adds a device of the chosen type, then reloads and selects it. The form closes when it worked;
    /// otherwise `problem` says why and the form stays open to fix it.
    func addDevice(name: String, typeID: String) -> Command {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            problem = "a device needs a name"
            return .none
        }
        let service = service
        return Command(writes.write("add \(trimmed)") {
            try await service.addDevice(name: trimmed, typeID: typeID)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let device):
                adding = nil
                pendingSelection = device.id
                return refresh()
            case .failure(let error):
                problem = describe(error)
                return .none
            }
        })
    }
}

extension DevicesModel {
    /// Makes the device a first reading of `field` needs when the person has none (`a` on HRV without a
    /// meter), as `hmon add` does; once the devices are reloaded, `then` runs (the screen opens on it).
    /// `made` gets the device's name when one was made, for the notice that says so.
    public func makeDevice(recording field: String, orMake type: BuiltInDeviceType,
                           made: @escaping @MainActor (String) -> Void,
                           then: @escaping @MainActor () -> Command) -> Command {
        let service = service
        return Command(writes.write("first \(type.firstDeviceName)") {
            try await service.device(recording: field, orMake: type)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let found):
                if found.created { made(found.device.name) }
                pendingSelection = found.device.id
                afterNextLoad = then
                return refresh()
            case .failure(let error):
                problem = describe(error)
                return .none
            }
        })
    }

    static func todayText(_ count: Int) -> String {
        count == 0 ? "none today" : count >= todayCap ? "\(Formats.whole(Double(todayCap)))+ today" : "\(Formats.whole(Double(count))) today"
    }

    public func reportCannotSeeWeight(_ row: DeviceRow) {
        problem = "\(row.name): \(row.seeWeightReason ?? "no weight readings")"
    }

    public func reportNoScale() {
        problem = "no device with weight readings: add a scale (a, type \"Scale\")"
    }

    /// Clears a message that no longer applies (the selection moved on).
    public func clearProblem() { problem = nil }
}

/// The add-device form: pick a type, then name the device.
public struct AddDeviceForm: Sendable, Equatable {
    public enum Stage: Sendable, Equatable { case pickType, name }
    public var stage: Stage = .pickType
    /// Type names to choose from.
    public var typeNames: [String]
    public var typeIDs: [String]
    public var selectedType = 0
    public var name = TextField(label: "Name", limit: 60)
}

extension DevicesModel {
    /// `a`: opens the form with the types the store knows.
    public func openAddDevice() {
        guard !deviceTypes.isEmpty else {
            problem = "no device types to choose from: refresh (R) and try again"
            return
        }
        adding = AddDeviceForm(typeNames: deviceTypes.map(\.name), typeIDs: deviceTypes.map(\.id))
    }

    public func cancelAddDevice() { adding = nil }

    public func moveTypeSelection(by delta: Int) {
        guard var form = adding, form.stage == .pickType else { return }
        form.selectedType = min(max(form.selectedType + delta, 0), form.typeIDs.count - 1)
        adding = form
    }

    public func addDeviceType(_ character: Character) { adding?.name.insert(character) }
    public func addDeviceDeleteBackward() { addDeviceEdit(.deleteBackward) }
    public func addDeviceEdit(_ edit: TextEdit) { adding?.name.apply(edit) }

    /// Enter: from the type list to the name, then creates the device.
    public func submitAddDevice() -> Command {
        guard var form = adding else { return .none }
        switch form.stage {
        case .pickType:
            form.stage = .name
            form.name = TextField(label: "Name for the new \(form.typeNames[form.selectedType])", limit: 60)
            adding = form
            return .none
        case .name:
            return addDevice(name: form.name.text, typeID: form.typeIDs[form.selectedType])
        }
    }
}
