import Foundation
import HealthCore
import HealthModel

/// One vital sign of one reading as the Vitals screen lists it, every figure already written.
public struct VitalsRow: Sendable, Equatable, Identifiable {
    /// The reading's id and the sign: a reading that carries two signs is two rows.
    public var id: String
    /// "Nov 20, 2026 07:30".
    public var time: String
    /// "BP", "SpO2", "Breathing", "Body temp.", "Skin temp.": the overview's words.
    public var sign: String
    /// "128/82 mmHg · pulse 64", "97.0 %", "14.6 breaths/min", "36.8 °C", "+0.23 °C".
    public var value: String
    /// A blood pressure's category by the 2017 ACC/AHA guideline, short for its column ("stage 1"); empty
    /// for the other signs.
    public var category: String
    /// The category in the guideline's words and whose they are, for the selected row's line: "stage 1
    /// hypertension (2017 ACC/AHA, one reading)"; empty for the other signs.
    public var categoryInFull: String
    /// The device, and where an import found the reading: "Watch · Health Connect".
    public var source: String
}

/// The Vitals screen's state: the newest readings of each vital sign (blood pressure, SpO2, breathing rate,
/// body temperature, a wrist's temperature change), newest first, a row a sign, in the person's units.
@MainActor
public final class VitalsModel {
    public let title = "Vitals"
    public private(set) var rows: [VitalsRow] = []
    public private(set) var selectedIndex = 0
    /// The selected row in full, its category in the guideline's words: "BP 128/82 mmHg · pulse 64 · stage 1
    /// hypertension (2017 ACC/AHA, one reading) · Watch · Nov 20, 2026 07:30". The time last: it is what a
    /// narrow terminal cuts, and the row above shows it.
    public var selectedLine: String? {
        guard rows.indices.contains(selectedIndex) else { return nil }
        let row = rows[selectedIndex]
        return ([row.sign + " " + row.value, row.categoryInFull, row.source, row.time].filter { !$0.isEmpty }).joined(separator: " · ")
    }
    public var isRefreshing: Bool { loads.isRunning }
    public private(set) var problem: String?
    public private(set) var notice: String?
    public private(set) var lastUpdated: Date?
    public private(set) var hasLoaded = false

    /// The most readings of each sign loaded.
    public static let loadCount = VitalsScreenData.defaultCount

    private let service: any HealthService
    private let clock: Clock
    let loads = LoadSlot(model: "vitals")

    public init(service: any HealthService, clock: Clock) {
        self.service = service
        self.clock = clock
    }

    public func refresh() -> Command {
        let service = service
        return Command([loads.load("latest \(Self.loadCount) of each vital sign") {
            try await service.vitalsScreen(VitalsScreenData.Ask(latestCount: Self.loadCount))
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let screen):
                let selected = rows.indices.contains(selectedIndex) ? rows[selectedIndex].id : nil
                rows = Self.rows(screen, calendar: clock.calendar)
                selectedIndex = selected.flatMap { id in rows.firstIndex { $0.id == id } } ?? min(selectedIndex, max(0, rows.count - 1))
                problem = nil
                lastUpdated = clock.now()
                hasLoaded = true
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        }])
    }

    /// ↑/↓ and the page keys: to a newer (negative) or older (positive) row.
    public func moveSelection(by delta: Int) {
        notice = nil
        guard !rows.isEmpty else { return }
        let move = SelectionMove(from: selectedIndex, by: delta, count: rows.count)
        switch move.stoppedAt {
        case .newest: notice = "this is the newest reading"
        case .oldest: notice = "this is the oldest reading loaded"
        case nil: break
        }
        selectedIndex = move.index
    }

    public func moveToTop() { moveSelection(by: -selectedIndex) }
    public func moveToBottom() { moveSelection(by: rows.count - 1 - selectedIndex) }

    // MARK: Words

    /// A row for each sign each reading carries, newest reading first.
    static func rows(_ screen: VitalsScreenData, calendar: Calendar) -> [VitalsRow] {
        let formats = Formats(calendar: calendar)
        let text = QuantityText(screen.profile)
        return screen.readings.flatMap { reading in
            VitalSign.signs(in: reading.data).map { sign in
                let (value, category) = Self.figure(sign, reading.data, text: text)
                return VitalsRow(id: reading.mid + " " + sign.rawValue, time: formats.dateTime(reading.date), sign: Self.word(sign),
                                 value: value, category: category?.shortWords ?? "",
                                 categoryInFull: category.map { $0.words + " (2017 ACC/AHA, one reading)" } ?? "",
                                 source: WeightsModel.source(scale: screen.deviceNames[reading.sdid],
                                                             origin: reading.data[Field.source]?.textValue))
            }
        }
    }

    /// The overview's word for each sign.
    static func word(_ sign: VitalSign) -> String {
        switch sign {
        case .bloodPressure: "BP"
        case .oxygenSaturation: "SpO2"
        case .respiratoryRate: "Breathing"
        case .bodyTemperature: "Body temp."
        case .skinTemperatureChange: "Skin temp."
        }
    }

    /// The figure in the person's units, and a blood pressure's category (nil for the other signs).
    static func figure(_ sign: VitalSign, _ data: [String: FieldValue], text: QuantityText) -> (String, BloodPressureCategory?) {
        guard sign == .bloodPressure else {
            guard let value = data[sign.kind.field]?.number, let quantity = sign.kind.quantity else { return ("—", nil) }
            return (text.text(value, quantity, signed: quantity == .temperatureChange), nil)
        }
        let systolic = data[ReadingKind.bloodPressureSystolic.field]?.number
        let diastolic = data[ReadingKind.bloodPressureDiastolic.field]?.number
        var figure = (systolic.map { text.number($0, .pressure) } ?? "—") + "/" + (diastolic.map { text.number($0, .pressure) } ?? "—")
            + " " + text.unit(.pressure)
        if let pulse = data[ReadingKind.heartRate.field]?.number { figure += " · pulse " + text.number(pulse, .heartRate) }
        // The category needs the upper figure: a diastolic alone is shown without one. Rounded as shown, as
        // the overview's line does, so the category is the one of the figures on screen.
        return (figure, systolic.map { BloodPressureCategory(systolic: $0.rounded(), diastolic: diastolic?.rounded()) })
    }
}
