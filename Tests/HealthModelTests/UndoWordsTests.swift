import Foundation
import Testing
@testable import HealthModel

/// What an undo says, in the person's units and words: never a stored field name or a kcal figure in a
/// kJ profile.
@Suite struct UndoWordsTests {
    private let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private func reading(_ data: [String: FieldValue], at time: String) -> Message {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        let date = calendar.date(from: DateComponents(year: 2026, month: 11, day: 26, hour: parts[0], minute: parts[1]))!
        return Message(mid: "m", sdid: "d", sdtid: "t", uid: "u", ts: date.millisecondsSince1970, cts: 0, mv: 1, data: data)
    }

    private func clock(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour!, parts.minute!)
    }

    @Test func aMealIsNamedInKilojoulesWithItsComment() {
        // 500 kJ as stored: 119.503 kcal.
        let meal = reading([Field.calories: .number(500 / 4.184), Field.comments: .text("test")], at: "14:09")
        let outcome = UndoOutcome(undone: .add, reading: meal)
        #expect(outcome.sentence(in: QuantityText(massUnit: .kg, energyUnit: .kJ), time: clock)
                == "removed the 500 kJ meal \"test\" of 14:09")
        #expect(UndoOutcome(undone: .delete, reading: meal).sentence(in: QuantityText(massUnit: .kg, energyUnit: .kcal), time: clock)
                == "put back the deleted 120 kcal meal \"test\" of 14:09")
    }

    @Test func anHRVMeasurementIsNamedByItsRMSSD() {
        let hrv = reading([Field.heartRate: .number(71), Field.pnn50: .number(0), Field.rmssd: .number(18.9),
                           Field.sdnn: .number(31.24), Field.source: .text("beats")], at: "07:12")
        let said = UndoOutcome(undone: .add, reading: hrv).sentence(in: QuantityText(), time: clock)
        #expect(said == "removed the HRV measurement of 07:12 (RMSSD 18.9 ms)")
        #expect(!said.contains("rmssd") && !said.contains("heartRate"))
    }

    @Test func aWeighInIsInTheProfilesMassUnit() {
        let weighIn = reading([Field.weight: .number(72.2)], at: "08:10")
        #expect(UndoOutcome(undone: .add, reading: weighIn).sentence(in: QuantityText(massUnit: .lb), time: clock)
                == "removed the weigh-in of 159.2 lb at 08:10")
    }
}
