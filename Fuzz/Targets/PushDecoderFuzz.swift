import Foundation
import HealthCore
import HealthConnectors
import HealthModel

/// Feeds inputs to the decoders of what apps push and pulls bring, as `hmon serve` reads them: a Health
/// Connect payload, an openScale-sync event, a page of Oura sleep documents.
///
/// What must hold: each input decodes or is refused with words; nothing traps (a duration of 1e16 seconds
/// once did, converted to milliseconds before it was judged); every reading kept holds finite figures, and
/// every night a length of at most a day. The store's own checks (`ArrivalJudge`) follow in the server.
enum PushDecoderFuzz {
    /// UTC, so an input means the same on every machine.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func healthConnect(_ input: [UInt8]) throws(FuzzFinding) {
        guard let payload = try? HealthConnectPayload(json: Data(input), calendar: calendar) else { return }
        for reading in payload.readings {
            guard reading.value.isFinite, reading.extras.values.allSatisfy(\.isFinite) else {
                throw FuzzFinding("a Health Connect reading kept a figure that is not finite: \(reading.record) \(reading.kind.name)")
            }
            if reading.key.hasPrefix("night:"), !([reading.value] + Array(reading.extras.values)).allSatisfy({ (0...1440).contains($0) }) {
                throw FuzzFinding("a Health Connect night longer than a day was kept: \(reading.record)")
            }
            _ = HealthConnectArrival.mid(userID: "fuzz", reading: reading)
        }
        _ = payload.refusals.map(\.text)
    }

    static func openScale(_ input: [UInt8]) throws(FuzzFinding) {
        guard let event = try? OpenScaleEvent(json: Data(input)) else { return }
        guard case .put(let weighIns, _, _) = event else { return }
        for weighIn in weighIns {
            for (field, value) in weighIn.data {
                guard case .number(let number) = value, number.isFinite else {
                    throw FuzzFinding("an openScale weigh-in kept \(field) that is not a finite number")
                }
            }
            _ = OpenScaleArrival.mid(userID: "fuzz", scaleUser: weighIn.scaleUser, at: weighIn.timestamp)
        }
    }

    static func oura(_ input: [UInt8]) throws(FuzzFinding) {
        guard let page = try? JSONDecoder().decode(OuraSleepPage.self, from: Data(input)) else { return }
        let nights = OuraNights(page.data)
        for reading in nights.readings {
            guard reading.value.isFinite, reading.extras.values.allSatisfy(\.isFinite) else {
                throw FuzzFinding("an Oura reading kept a figure that is not finite: \(reading.key)")
            }
            if reading.key.hasPrefix("night:"), !([reading.value] + Array(reading.extras.values)).allSatisfy({ (0...1440).contains($0) }) {
                throw FuzzFinding("an Oura night longer than a day was kept: \(reading.key)")
            }
        }
        _ = nights.skippedText
    }

    /// `GET /v2/usercollection/sleep`'s page: `{"data": […], "next_token": …}`.
    private struct OuraSleepPage: Decodable {
        var data: [OuraSleep]
    }
}
