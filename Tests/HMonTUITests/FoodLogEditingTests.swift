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
