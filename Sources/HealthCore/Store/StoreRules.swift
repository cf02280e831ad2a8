import Foundation
import HealthModel

/// The rules both engines apply before they write or answer, in one place so SQLite and PostgreSQL take
/// and refuse the same inputs with the same words: times, page sizes, a reading's JSON, labels, names.
public enum StoreRules {
    /// The most readings one call returns (`lastMessages` and a page of `messages`).
    public static let maximumPageSize = 1000

    /// The store's own floor for a reading's time: not before 1970, not more than a day ahead of the clock.
    /// Every door that takes readings from outside holds them to the stricter one rule first (`ReadingTime`:
    /// from 2000 on): the API, the push decoders, the pulls and the importers.
    public static func checkTimestamp(_ ts: Int64, now: Int64) throws {
        if ts < 0 { throw HealthError.invalidValue("the reading's time is before 1970: check the date") }
        if ts > now + 86_400_000 { throw HealthError.invalidValue("the reading's time is more than a day in the future: check the date") }
    }

    /// The earliest time a message posted to SAMI's API may have: 2000-01-01 UTC, in milliseconds.
    public static let earliestPostedMessage: Int64 = 946_684_800_000

    /// A device's name as both engines store it: trimmed, not empty, at most 100 characters, no control or
    /// format characters.
    public static func deviceName(_ name: String) throws -> String {
        let name = name.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { throw HealthError.invalidValue("the device name is empty: pass --name \"Bathroom scale\"") }
        if name.count > 100 { throw HealthError.invalidValue("the device name is longer than 100 characters: choose a shorter one") }
        try TextRules.check(name, as: "the device name")
        return name
    }

    /// A device name the user already gave another device (names pick devices at the command line),
    /// compared without ASCII case as both engines compare them.
    public static func deviceNameTaken(_ name: String) -> HealthError {
        .invalidValue("you already have a device named \"\(name)\": choose another name")
    }

    /// A posted message's `ts` (SAMI's `POST /v1.1/messages`): from 2000 on and not more than a day ahead.
    /// A time in seconds instead of milliseconds (1764000000 for November 2025) reads as January 1970, and
    /// stored it sat 20,000 empty days before everything else: the message says what is expected.
    /// The store itself keeps 1970 as its floor (`checkTimestamp`).
    public static func checkPostedTimestamp(_ ts: Int64, now: Int64) throws {
        if ts < earliestPostedMessage {
            let seconds = ts > 946_684_800 && ts <= now / 1000 + 86_400
            throw HealthError.invalidValue("the reading's time \(ts) is before 2000-01-01: ts is in milliseconds since 1970"
                + (seconds ? " (\(ts) looks like seconds: multiply by 1000)" : ""))
        }
        if ts > now + 86_400_000 {
            let micro = ts / 1000 >= earliestPostedMessage && ts / 1000 <= now + 86_400_000
            throw HealthError.invalidValue("the reading's time \(ts) is more than a day in the future: ts is in milliseconds since 1970"
                + (micro ? " (\(ts) looks like microseconds: divide by 1000)" : ""))
        }
        try checkTimestamp(ts, now: now)
    }

    /// Whether a time from outside (ms) is in the window of `checkPostedTimestamp`: what a linked source
    /// (Withings, Health Auto Export) brings is held to the same window as the API's posts.
    public static func isInPostedWindow(_ ts: Int64, now: Int64) -> Bool {
        (try? checkPostedTimestamp(ts, now: now)) != nil
    }

    /// A name, id or text from outside as both engines may take it: without NUL. PostgreSQL refuses NUL in
    /// text outright (an error, a 500 at the server) while SQLite's C string cut the text at it (`alice\0`
    /// signed in as alice), so neither engine is ever handed one: `what` names the field in the refusal.
    public static func checkNoNUL(_ text: String, as what: String) throws {
        if text.utf8.contains(0) {
            throw HealthError.invalidValue("\(what) holds a NUL character (U+0000): remove it")
        }
    }

    /// A count of readings asked for: 1 to `maximumPageSize`.
    public static func checkCount(_ count: Int) throws {
        if !(1...maximumPageSize).contains(count) {
            throw HealthError.invalidValue("count \(count) is outside 1–\(maximumPageSize)")
        }
    }

    /// A reading's data as the JSON both engines store (keys sorted), at most 10,000 bytes.
    ///
    /// Written here rather than by `JSONEncoder`, to the same text (`StoreRulesTests` compares the two):
    /// every write of a reading makes one, and an import of hmon's own export one per reading, where the
    /// encoder and its boxing cost several times the rest of the row.
    public static func encode(_ data: [String: FieldValue]) throws -> String {
        var text = "{"
        for (index, (name, value)) in data.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { text += "," }
            appendJSONString(name, to: &text)
            text += ":"
            switch value {
            case .number(let number):
                guard number.isFinite else { throw HealthError.invalidValue("\(name) must be a finite number") }
                text += number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
            case .text(let words):
                appendJSONString(words, to: &text)
            }
        }
        text += "}"
        // Worded with the field first: the server names the field of an invalid value by its first word.
        if text.utf8.count > 10_000 {
            throw HealthError.invalidValue("data of the reading is \(text.utf8.count) bytes as JSON, more than 10,000: send less")
        }
        return text
    }

    /// `value` as a JSON string, escaped as `JSONEncoder` escapes it (with `.withoutEscapingSlashes`).
    private static func appendJSONString(_ value: String, to text: inout String) {
        text += "\""
        var plainFrom = value.unicodeScalars.startIndex
        var index = plainFrom
        let scalars = value.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String? = switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case "\u{08}": "\\b"
            case "\u{0C}": "\\f"
            default: scalar.value < 0x20 ? "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16) : nil
            }
            if let escape {
                text.unicodeScalars.append(contentsOf: scalars[plainFrom..<index])
                text += escape
                plainFrom = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        text.unicodeScalars.append(contentsOf: scalars[plainFrom..<scalars.endIndex])
        text += "\""
    }

    /// `postBatch`'s readings with their ids and times, each time checked, before any is written (both
    /// engines): a wrong one is named by its place ("reading 17: …").
    public static func batchRows(_ messages: [NewMessage], mids: [String]?, received: Int64) throws
        -> [(mid: String, message: NewMessage, ts: Int64)] {
        if let mids, mids.count != messages.count {
            throw HealthError.invalidValue("\(mids.count) ids for \(messages.count) readings")
        }
        var rows: [(mid: String, message: NewMessage, ts: Int64)] = []
        rows.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            do {
                let ts = message.ts ?? received
                try checkTimestamp(ts, now: received)
                try checkNoNUL(message.sdid, as: "sdid")
                rows.append((mids?[index] ?? Secrets.newID(), message, ts))
            } catch let error as HealthError {
                throw inBatch(error, at: index)
            }
        }
        return rows
    }

    /// A personal token's label as kept (trimmed), or why it is refused (both engines).
    public static func personalTokenLabel(_ label: String) throws -> String {
        let label = label.trimmingCharacters(in: .whitespaces)
        if label.count > 100 { throw HealthError.invalidValue("the token's label is longer than 100 characters: choose a shorter one") }
        try TextRules.check(label, as: "the token's label")
        return label
    }

    /// The name of the HRV meter a link creates when the user has none.
    public static let welltoryDeviceName = "Welltory"
}
