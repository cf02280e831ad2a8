import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The HRV screen shows each measurement beside the night that ended that morning: a short night is read
/// against the HRV measured after it. A night belongs to the day it ends (`SleepNights`).
@MainActor
struct HRVBesideSleepTests {
    @Test(arguments: ServiceFactory.all)
    func eachMeasurementShowsTheNightBeforeIt(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let meter = try await world.device("HRV Meter", named: "Welltory", on: service)
            let watch = try await world.device("Activity Tracker", named: "Apple Watch", on: service)
            // The night to the 20th, as an import stores it: stamped when it ended, its stages beside time asleep.
            try await service.post(NewMessage(sdid: watch.id, ts: ViewModelWorld.date("2026-11-20 06:40").millisecondsSince1970,
                                              data: [Field.sleepMinutes: .number(450), Field.deepSleepMinutes: .number(65),
                                                     Field.inBedMinutes: .number(475)]))
            for (day, rmssd) in [("19", 44.0), ("20", 52.0)] {
                try await service.post(NewMessage(sdid: meter.id, ts: ViewModelWorld.date("2026-11-\(day) 07:00").millisecondsSince1970,
                                                  data: [Field.rmssd: .number(rmssd), Field.source: .text("beats")]))
            }
            let model = HRVModel(service: service, device: meter, clock: world.clock)
            await model.refresh().complete()
            #expect(model.rows.map(\.sleep) == ["7 h 30", "—"], "the 19th's morning had no night recorded")
            #expect(model.latest?.figures.prefix(2).map(\.label) == ["RMSSD", "Slept"])
            #expect(model.latest?.figures.first { $0.label == "Slept" }?.value == "7 h 30")
        }
    }

    @Test func aNightIsWrittenInHoursAndMinutes() {
        #expect(Formats.hoursMinutes(450) == "7 h 30")
        #expect(Formats.hoursMinutes(425.4) == "7 h 05")
        #expect(Formats.hoursMinutes(45) == "45 min")
    }
}
