import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// Issue 16: names that cannot drive a terminal, and numbers as people type them, in the core where
/// the command line, the importer and the server all go through them.
@Suite struct TextAndNumberRulesTests {
    // MARK: Text

    /// Each one, printed raw, changes what a terminal shows: C0 (ESC, BEL, NUL, newline, tab), DEL, C1
    /// (CSI U+009B), the bidi overrides and isolates, the marks, zero-width characters, the BOM, U+2028.
    static let unsafe: [Unicode.Scalar] = [
        "\u{00}", "\u{07}", "\u{09}", "\u{0A}", "\u{1B}", "\u{7F}", "\u{80}", "\u{9B}", "\u{9F}",
        "\u{061C}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202E}",
        "\u{2060}", "\u{2066}", "\u{2069}", "\u{FEFF}", "\u{2028}", "\u{2029}",
    ]

    @Test func controlBidiAndZeroWidthCharactersAreUnsafeAndLettersAreNot() {
        for scalar in Self.unsafe { #expect(TextRules.isUnsafe(scalar), "\(TextRules.codePoint(scalar))") }
        for text in ["Bathroom scale", "Jörg's iPhone", "Весы", "体重計", "Scale 🙂", "Ünïcödé – “quoted”"] {
            #expect(TextRules.firstUnsafe(in: text) == nil, "\(text)")
        }
    }

    @Test func theRuleNamesTheCharacterAndWhereItIs() {
        #expect(throws: HealthError.invalidValue(
            "the device name holds a control character (U+001B) at character 5, which could change what a terminal shows: remove it")) {
            try TextRules.check("Evil\u{1B}[2J", as: "the device name")
        }
        #expect(TextRules.replacingUnsafe(in: "a\u{1B}b\u{202E}c") == ("a\u{FFFD}b\u{FFFD}c", 2))
    }

    @Test func everyEntryForNamesRefusesThem() async throws {
        let world = try TestWorld()
        let (user, service) = try await world.user()
        for scalar in Self.unsafe where scalar != "\u{09}" && scalar != "\u{0A}" {  // trimmed at the ends anyway
            let name = "Scale\(Character(scalar))Evil"
            await #expect(throws: HealthError.self) {
                try await service.addDevice(name: name, typeID: BuiltInDeviceType.withings.deviceType.id)
            }
            await #expect(throws: HealthError.self) {
                try await world.store.createUser(NewAccount(name: "bob", fullName: "Bob \(name)", password: "secret-pw"))
            }
            await #expect(throws: HealthError.self) {
                try await world.store.createClient(name: name, redirectURI: nil, ownerID: user.id)
            }
        }
        #expect(try await world.store.devices(userID: user.id).isEmpty)
        #expect(try await world.store.users().map(\.name) == ["alice"])
    }

    @Test func aFullNameHasALengthLimit() async throws {
        let world = try TestWorld()
        await #expect(throws: HealthError.invalidValue("the full name is longer than 100 characters: pass a shorter one")) {
            try await world.store.createUser(NewAccount(name: "bob", fullName: String(repeating: "x", count: 101), password: "secret-pw"))
        }
        let user = try await world.store.createUser(NewAccount(name: "bob", fullName: String(repeating: "é", count: 100), password: "secret-pw"))
        #expect(user.fullName.count == 100)
    }

    // MARK: Numbers

    @Test func onlyPlainDecimalNumbersAreNumbers() {
        let accepted: [(String, Double)] = [("72.4", 72.4), ("72", 72), (" 72.4 ", 72.4), ("+5", 5), ("-3.5", -3.5),
                                            (".5", 0.5), ("5.", 5), ("1e3", 1000), ("2.5E-1", 0.25), ("-0", 0), ("-0.0", 0)]
        for (text, value) in accepted {
            #expect(NumberText.decimal(text) == value, "\(text)")
        }
        #expect(NumberText.decimal("-0")?.sign == .plus, "-0 is stored as 0")
        let refused = ["nan", "NaN", "inf", "-inf", "infinity", "0x40", "0x1p6", "1e309", "-1e309", "", ".", "e5", "1e", "1.2.3",
                       "1,5", "٣", "72 kg", String(repeating: "9", count: 100_000), "1" + String(repeating: "0", count: 40)]
        for text in refused {
            #expect(NumberText.decimal(text) == nil, "\(text.prefix(20))")
        }
    }

    /// Hand-worked: two decimals at most, none for a whole number, and never a bare point or "-0".
    @Test func numbersInMessagesAreWrittenWithTheirDigits() {
        #expect(formatted(650) == "650")
        #expect(formatted(650.001) == "650.0")
        #expect(formatted(0.001) == "0.0")
        #expect(formatted(-0.0) == "0")
        #expect(formatted(72.45) == "72.45")
        #expect(formatted(72.4) == "72.4")
        #expect(formatted(-3) == "-3")
        #expect(formatted(.nan) == "nan")
        #expect(!formatted(650.004).hasSuffix("."))
    }

    @Test func negativeZeroIsStoredAsZero() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let tracker = try await world.device(.activityTracker, named: "Watch", for: service)
        let mid = try await service.post(NewMessage(sdid: tracker.id, ts: 1_700_000_000_000, data: [Field.activeEnergy: .number(-0.0)]))
        let json = try await world.store.read { db in try String.fetchOne(db, sql: "SELECT data FROM messages WHERE mid = ?", arguments: [Data(BinaryID.encode(mid))]) }
        #expect(json == #"{"activeEnergy":0}"#)
    }

    @Test func anOverlongReadingNamesItsDataNotTheWordThe() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let log = try await world.device(.calorieTracker, named: "Food log", for: service)
        do {
            try await service.post(NewMessage(sdid: log.id, ts: 1_700_000_000_000,
                                              data: [Field.calories: .number(400), Field.comments: .text(String(repeating: "x", count: 10_001))]))
            Issue.record("an overlong reading was stored")
        } catch HealthError.invalidValue(let message) {
            // The server names the field of an invalid value by its first word.
            #expect(message.hasPrefix("data "), "\(message)")
        }
    }
}
