import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import SQLiteStorage
import Terminal
import Testing

/// Issue 28, item 6: the food log is editable where it is shown, with the keys of every table screen:
/// ↑/↓ pick an entry, `e` corrects it, `d` deletes it after a y/n question; at 80×24, where the food log
/// has no column of its own, it takes the week's place while in use.
@MainActor
struct FoodLogEditingTests {
    private func todaysEntries(_ world: DemoWorld) async throws -> [Message] {
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let start = world.clock.today.start(in: world.clock.calendar)
        return try await world.store.readings(ReadingsQuery(from: start.millisecondsSince1970, field: Field.calories), userID: user.id)
    }

    @Test func eCorrectsTheSelectedEntryAt80x24() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        _ = await dashboard.press(.char("3"))
        #expect(!frame(of: dashboard, size: size).contains("Food log"), "80 columns: no room beside the figures")
        let before = try await todaysEntries(world)
        let newest = try #require(before.max { $0.ts < $1.ts })

        _ = await dashboard.press(.char("k"))
        _ = await dashboard.press(.char("j"))
        let browsing = frame(of: dashboard, size: size)
        #expect(browsing.contains("Food log") && browsing.contains("↑↓ e d"), "\(browsing)")

        _ = await dashboard.press(.char("e"))
        let prompt = frame(of: dashboard, size: size)
        #expect(prompt.contains("Energy in kcal of"), "\(prompt)")
        _ = await dashboard.press(.ctrl("u"))
        for key in "432" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        #expect(frame(of: dashboard, size: size).contains("What was it"))
        _ = await dashboard.press(.ctrl("u"))
        for key in "soup" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)

        let after = try await todaysEntries(world)
        #expect(after.count == before.count, "corrected in place, not added")
        let corrected = try #require(after.first { $0.mid == newest.mid })
        #expect(corrected.data[Field.calories] == .number(432))
        #expect(corrected.data[Field.comments] == .text("soup"))
        #expect(frame(of: dashboard, size: size).contains("Soup"))
    }

    /// A meal a phone pushed says where it came from, dim after what it was, where the row has room.
    @Test func aPushedMealSaysWhereItCameFromAfterWhatItWas() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let food = try #require(try await world.store.devices(userID: user.id)
            .first { $0.dtid == BuiltInDeviceType.calorieTracker.deviceType.id })
        let breakfast = DemoWorld.now.addingTimeInterval(-10 * 3600)
        _ = try await world.store.post(NewMessage(sdid: food.id, ts: breakfast.millisecondsSince1970,
                                                  data: [Field.calories: .number(450), Field.comments: .text("oatmeal"),
                                                         Field.source: .text("MyFitnessPal · Health Connect")]),
                                       userID: user.id, now: DemoWorld.now)
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("3"))
        let wide = frame(of: dashboard, size: Size(width: 200, height: 60))
        #expect(wide.contains("Oatmeal · MyFitnessPal · Health Connect"), "\(wide)")
        let narrow = frame(of: dashboard, size: Size(width: 120, height: 40))
        #expect(narrow.contains("Oatmeal · MyFitnessPal… 450 kcal"), "cut before the energy, which always shows: \(narrow)")
    }

    @Test func dAsksThenDeletesTheSelectedEntry() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        _ = await dashboard.press(.char("3"))
        let before = try await todaysEntries(world)
        let oldest = try #require(before.min { $0.ts < $1.ts })
        for _ in before { _ = await dashboard.press(.up) }   // up to the day's first entry

        _ = await dashboard.press(.char("d"))
        let asked = frame(of: dashboard, size: size)
        #expect(asked.contains("Delete ") && asked.contains("? y/n"), "\(asked)")
        _ = await dashboard.press(.char("n"))
        #expect(try await todaysEntries(world).count == before.count, "n keeps it")

        _ = await dashboard.press(.char("d"))
        _ = await dashboard.press(.char("y"))
        let after = try await todaysEntries(world)
        #expect(after.count == before.count - 1)
        #expect(!after.contains { $0.mid == oldest.mid }, "the selected (first) entry went, not the newest")
    }

    @Test func eOnADayWithoutFoodSaysSo() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: DemoData.userName)
        for entry in try await todaysEntries(world) { try await service.deleteReading(id: entry.mid) }
        _ = user
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("3"))
        _ = await dashboard.press(.char("e"))
        #expect(frame(of: dashboard, size: Size(width: 80, height: 24)).contains("no food logged on this day to correct"))
    }
}

/// Issue 28: on a surplus day the week's bar used to run to the edge and lose its "so far ◂" marker.
@MainActor
struct SurplusDayMarkerTests {
    @Test(arguments: [80, 120])
    func theBiggestSurplusTodayKeepsItsMarker(width: Int) async throws {
        let world = try await DemoWorld()
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: DemoData.userName)
        let log = try await service.device(recording: Field.calories, orMake: .calorieTracker).device
        try await service.post(NewMessage(sdid: log.id, ts: DemoWorld.now.millisecondsSince1970 - 60_000, data: [Field.calories: .number(4_000)]))
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("3"))
        let text = frame(of: dashboard, size: Size(width: width, height: 40))
        let today = try #require(text.split(separator: "\n").first { $0.contains("Fri Nov 20") && $0.contains("│") && $0.contains("+") })
        #expect(today.contains("so far ◂"), "\(today)")
    }
}

/// Issue 28: "Learned from your data … · 28" wrapped mid-phrase; it breaks between its phrases now.
struct LearnedLineTests {
    @Test func phrasesStayWhole() {
        let text = "Learned from your data: 8,472 kJ/day · formula (BMR + active) 8,151 kJ/day · 28 days of food logs, 26 of weigh-ins"
        let lines = EnergyView.phraseLines(text, width: 54)
        #expect(lines.first == "Learned from your data: 8,472 kJ/day")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 54 })
        #expect(lines.joined(separator: " · ") == text, "nothing lost")
    }
}
