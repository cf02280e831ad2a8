import HealthCore
import HealthModel
@testable import HealthViewModels
import Testing

/// Readings read as a person says them: labels, not field keys; a food entry as what was eaten.
struct FieldTextTests {

    func message(_ data: [String: FieldValue]) -> Message {
        Message(mid: "m", sdid: "d", sdtid: "t", uid: "u", ts: 0, cts: 0, mv: 1, data: data)
    }

    @Test func aScalesReadingNamesEachFieldAndWritesBpm() {
        let parts = FieldText.parts(of: message([Field.weight: .number(70), Field.fatRatio: .number(26), Field.heartRate: .number(62)]),
                                    manifest: BuiltInDeviceType.withings.manifest)
        #expect(parts == ["Weight 70.0 kg", "Body fat 26.0 %", "Heart rate 62 bpm"], "one format per quantity")
    }

    @Test func aFoodEntryIsWhatWasEatenNotItsFieldsDescription() {
        let parts = FieldText.parts(of: message([Field.calories: .number(650), Field.comments: .text("vegetable curry")]),
                                    manifest: BuiltInDeviceType.calorieTracker.manifest)
        #expect(parts == ["Eaten 650 kcal", "Vegetable curry"])
    }

    @Test func anUnknownFieldIsSplitIntoWordsAndBookkeepingStaysHidden() {
        let parts = FieldText.parts(of: message([Field.rmssd: .number(48), Field.shareToken: .text("abc"), "bloodGlucose": .number(5.4)]),
                                    manifest: BuiltInDeviceType.hrvMeter.manifest)
        #expect(parts == ["RMSSD 48.0 ms", "Blood glucose 5.4"])
    }
}
