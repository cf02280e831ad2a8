import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// What an import fills in a profile (`ProfileFill`), the one rule both engines write by.
@Suite struct ProfileFillTests {
    let today = Day(year: 2026, month: 11, day: 26)

    @Test func onlyEmptyFieldsAreFilledInTheReportsOrder() {
        let fill = ProfileFill(birthDate: Day(year: 1984, month: 7, day: 9), sex: .female, heightCm: 170,
                               empty: (birthDate: true, sex: false, heightCm: true), today: today)
        #expect(fill.birthDate == Day(year: 1984, month: 7, day: 9))
        #expect(fill.sex == nil, "a sex already set is kept")
        #expect(fill.heightCm == 170)
        #expect(fill.filled == ["date of birth", "height"])
    }

    @Test func aValueTheProfileRulesRefuseIsLeftOutAndTheRestStillFilled() {
        let fill = ProfileFill(birthDate: Day(year: 2030, month: 1, day: 1), sex: .male, heightCm: 1.75,
                               empty: (birthDate: true, sex: true, heightCm: true), today: today)
        #expect(fill == ProfileFill(birthDate: nil, sex: .male, heightCm: nil, empty: (true, true, true), today: today))
        #expect(fill.filled == ["sex"])
    }
}
