import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Testing

/// Every push and pull decoder fed the numbers that trap a careless conversion: ±1e16, ±1e300, −0, the
/// Int64 edges and 2^53+1 (JSON carries no NaN or infinity: a body with one is not JSON). Each must decode
/// or refuse with words, never trap, and keep only finite figures within the rules.
@Suite struct PushDecoderExtremesTests {
    static let extremes = ["1e16", "-1e16", "1e300", "-1e300", "-0.0", "0", "9223372036854775807", "-9223372036854775808",
                           "9007199254740993", "1.7976931348623157e308", "5e-324"]

    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static let now = Date(timeIntervalSince1970: 1_763_622_000)

    @Test(arguments: extremes) func healthConnect(_ number: String) throws {
        let body = """
            {"source":"health_connect","weight":[{"kilograms":\(number),"time":"2025-11-20T07:00:00Z","uuid":"w"}],
             "steps":[{"count":\(number),"start_time":"2025-11-20T07:00:00Z","end_time":"2025-11-20T08:00:00Z","uuid":"s"}],
             "heart_rate_variability":[{"bucket_start":"2025-11-20T06:00:00Z","sample_count":\(number),"avg":\(number)}],
             "daily_totals":[{"date":"2025-11-20","steps":\(number),"active_calories":\(number),"total_calories":\(number)}],
             "sleep":[{"session_end_time":"2025-11-20T07:00:00Z","duration_seconds":\(number),
                       "stages":[{"stage":"deep","duration_seconds":\(number)},{"stage":"light","start_time":"2025-11-20T01:00:00Z","end_time":"2025-11-20T02:00:00Z"}]}]}
            """
        let payload = try HealthConnectPayload(json: Data(body.utf8), calendar: Self.utc)
        for reading in payload.readings {
            #expect(reading.value.isFinite && reading.extras.values.allSatisfy(\.isFinite), "\(number): \(reading)")
            let data = [reading.kind.field: FieldValue.number(reading.value)]
            if ArrivalJudge.problem(ts: reading.timestamp, data: data, now: Self.now) == nil {
                #expect((try? ReadingRules.check(field: reading.kind.field, value: reading.value)) != nil, "\(number): \(reading)")
            }
        }
        for reading in payload.readings where reading.key.hasPrefix("night:") {
            #expect(([reading.value] + Array(reading.extras.values)).allSatisfy { (0...1440).contains($0) }, "\(number): \(reading)")
        }
    }

    @Test(arguments: extremes) func openScale(_ number: String) {
        let body = #"{"event":"insert","measurements":[{"userId":\#(number),"date":"2025-11-20T06:30:00.000Z","weight":\#(number),"body_fat":\#(number),"water":\#(number),"muscle":\#(number)}]}"#
        guard let event = try? OpenScaleEvent(json: Data(body.utf8)), case .put(let weighIns, _, let refused) = event else { return }
        #expect(weighIns.count + refused.count == 1)
        for weighIn in weighIns {
            for value in weighIn.data.values {
                guard case .number(let figure) = value else { continue }
                #expect(figure.isFinite, "\(number): \(weighIn)")
            }
        }
    }

    /// The fuzzer's find (Fuzz/Corpus/openscale/muscle-share-overflows-the-product.json): a weight and a muscle share
    /// each huge but finite multiplied to infinity. A share past 100 % refuses its weigh-in by name; a real one is kept
    /// as the mass it is of the weight.
    @Test func aMuscleSharePast100PercentRefusesItsWeighInAndARealOneIsKeptAsAMass() throws {
        let body = #"{"event":"insert","measurements":[{"userId":1,"date":"2025-11-19T07:00:00.000Z","weight":1e300,"muscle":2e300},"#
            + #"{"userId":1,"date":"2025-11-20T07:00:00.000Z","weight":80,"muscle":40}]}"#
        guard case .put(let weighIns, _, let refused) = try OpenScaleEvent(json: Data(body.utf8)) else {
            Issue.record("not a put")
            return
        }
        #expect(refused.map(\.text) == ["measurements[0]: muscle must be a percentage of the weight, 0–100"])
        #expect(weighIns.map { $0.data[ReadingKind.muscleMass.field] } == [.number(32)])
    }

    @Test(arguments: extremes) func oura(_ number: String) throws {
        let body = #"{"id":"x","day":"2025-11-20","bedtime_start":"2025-11-19T23:00:00+01:00","bedtime_end":"2025-11-20T07:00:00+01:00","type":"long_sleep","average_hrv":\#(number),"lowest_heart_rate":\#(number),"total_sleep_duration":\#(number),"time_in_bed":\#(number),"deep_sleep_duration":\#(number),"rem_sleep_duration":\#(number),"light_sleep_duration":\#(number),"awake_time":\#(number)}"#
        let document = try JSONDecoder().decode(OuraSleep.self, from: Data(body.utf8))
        let nights = OuraNights([document])
        for reading in nights.readings {
            #expect(reading.value.isFinite && reading.extras.values.allSatisfy(\.isFinite), "\(number): \(reading)")
            #expect((try? ReadingRules.check(field: reading.kind.field, value: reading.value)) != nil, "\(number): \(reading)")
        }
    }
}
