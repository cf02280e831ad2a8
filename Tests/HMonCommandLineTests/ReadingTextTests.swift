import HMonCommandLine
import HealthCore
import HealthModel
import Testing

/// `hmon reading list` names each value in the words the screens use, not the stored field names: "body fat",
/// not "fatRatio"; "eaten 2,176 kJ", not "calories 2,176 kJ"; an acronym stays as written ("REM").
@Suite struct ReadingTextTests {
    @Test func fieldsAreNamedInPeoplesWords() {
        let scale = ReadingText.values([Field.weight: .number(72.4), Field.fatRatio: .number(21.5), Field.muscleMass: .number(30.1)],
                                       manifest: nil)
        #expect(scale == "body fat 21.5 %, muscle 30.1 kg, weight 72.4 kg", "\(scale)")
        let meal = ReadingText.values([Field.calories: .number(520)], manifest: nil, energyUnit: .kJ)
        #expect(meal == "eaten 2,176 kJ", "\(meal)")
        let night = ReadingText.values([Field.remSleepMinutes: .number(95)], manifest: nil)
        #expect(night.hasPrefix("REM "), "\(night)")
    }
}
