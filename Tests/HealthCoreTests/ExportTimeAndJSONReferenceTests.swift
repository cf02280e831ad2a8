import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
import HealthModel

/// Issue 30, item 2: `hmon import` of hmon's own export reads its times and writes each reading's JSON
/// without Foundation's `ISO8601DateFormatter` and `JSONEncoder`, which cost most of a row. Both stand-ins
/// are checked here against the Foundation code they replace, as the reference.
@Suite struct ExportTimeAndJSONReferenceTests {
    /// Foundation's parser, as `ExportTime.parse` used it before.
    static func foundation(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.millisecondsSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.millisecondsSince1970
    }

    static func fast(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { ExportTime.fastParse($0) }
    }

    @Test func exportTimesReadBackAsFoundationReadsThem() {
        var generator = SystemRandomNumberGenerator()
        let zones = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham",
                     "America/St_Johns", "Pacific/Kiritimati"].map { TimeZone(identifier: $0)! }
        for _ in 0..<2_000 {
            // 1970 (no reading is older) to 2099, ms precision: leap days, year ends and zone changes all come up.
            let ms = Int64.random(in: 0...4_100_000_000_000, using: &generator)
            let text = ExportTime.format(ms, timeZone: zones.randomElement(using: &generator)!)
            #expect(Self.fast(text) == ms, "\(text)")
            #expect(Self.fast(text) == Self.foundation(text), "\(text)")
        }
    }

    @Test(arguments: [
        "2024-02-29T23:59:59Z", "2024-01-02T07:15:00+01:00", "2024-01-02T07:15:00.5-03:30", "2024-01-02T07:15:00.25Z",
        "2000-03-01T00:00:00.000+14:00", "1970-01-01T00:00:00.000Z", "2100-02-28T12:00:00.999-12:00",
    ])
    func otherFormsFoundationReadsComeOutTheSame(text: String) {
        #expect(Self.fast(text) != nil)
        #expect(Self.fast(text) == Self.foundation(text))
    }

    /// Not of the export's form, or no real time (February 30, an offset beyond ±14:00): nil, where Foundation
    /// read February 30 as March 2 and +99:00 as an offset. The Apple Health importer refuses the same.
    @Test(arguments: [
        "yesterday", "2024-01-02", "2024-01-02T07:15", "2024-01-02 07:15:00Z", "2024-13-02T07:15:00Z", "2023-02-29T07:15:00Z",
        "2024-01-02T24:00:00Z", "2024-01-02T07:60:00Z", "2024-01-02T07:15:00", "2024-01-02T07:15:00.Z", "2026-02-30T07:15:00.000+01:00",
        "2024-01-02T07:15:00Z trailing", "2024-01-02T07:15:00+19:00", "2024-01-02T07:15:00+99:00", "2024-01-02T07:15:00-14:01",
        "٢٠٢٤-01-02T07:15:00Z",
    ])
    func notTheExportsFormOrNoRealTimeIsRefused(text: String) {
        #expect(Self.fast(text) == nil)
        #expect(ExportTime.parse(text) == nil)
    }

    @Test func anOffsetWithoutItsColonReadsAsWithIt() {
        #expect(ExportTime.parse("2024-01-02T07:15:00+0100") == ExportTime.parse("2024-01-02T07:15:00+01:00"))
        #expect(ExportTime.parse("2024-01-02T07:15:00-1400") == ExportTime.parse("2024-01-02T07:15:00-14:00"))
    }

    /// `StoreRules.encode` writes what `JSONEncoder` wrote with `.sortedKeys, .withoutEscapingSlashes`.
    @Test func storedJSONIsWhatJSONEncoderWrote() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let cases: [[String: FieldValue]] = [
            [Field.weight: .number(72.35), Field.fatRatio: .number(21.5)],
            [Field.calories: .number(650), Field.comments: .text("soup \"of the day\", 1/2 bowl\n\ttwice\\ \u{1}\u{1F} é 🍲")],
            [Field.steps: .number(0), "b": .number(1e-7), "a": .number(123_456.789), "c": .number(-4.25)],
            ["zeta": .text(""), "Alpha": .number(3), "alpha": .number(2.5e10)],
            [:],
        ]
        for data in cases {
            let reference = String(decoding: try encoder.encode(data), as: UTF8.self)
            #expect(try StoreRules.encode(data) == reference)
        }
    }
}
