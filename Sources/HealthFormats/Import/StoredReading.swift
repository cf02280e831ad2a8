import Crypto
import HealthModel
import Foundation
import HealthCore
import CheckedNumbers

/// How an imported reading is stored: its message data and its deterministic id.
enum StoredReading {
    /// `json` (a stored reading's object) with its `source` field added: where a scale's weigh-in came from,
    /// kept once every source's weigh-ins share one scale. `encodedSource` is `sourceJSON(_:)`'s text.
    static func json(_ json: String, addingSource encodedSource: String) -> String {
        String(json.dropLast()) + ",\"" + Field.source + "\":" + encodedSource + "}"
    }

    /// A source as a JSON string, with the characters `TextRules` refuses replaced as in device names.
    /// A night's stages are as long as the night: they are kept whole (`longest`).
    static func sourceJSON(_ source: String, longest: Int = 100) -> String {
        let cleaned = TextRules.replacingUnsafe(in: source).0
        return (try? JSONEncoder().encode(String(cleaned.prefix(longest)))).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    /// `{"weight":72.4}`, in the units of the built-in manifests (height in m), each value as
    /// `ReadingRules.accepted` stores it, the rule every face's readings go through.
    /// Throws `.invalidValue` for a value the rule refuses.
    static func json(_ reading: ImportedReading) throws -> String {
        try encoded(reading).json
    }

    /// `json(_:)`, with the four numbers stored beside it (`ReadingNumbers`), taken from the same accepted
    /// values as they are written, so the two cannot disagree and no value is checked twice.
    static func encoded(_ reading: ImportedReading) throws -> (json: String, numbers: ReadingNumbers) {
        let kind = reading.kind
        var numbers = ReadingNumbers()
        let value = try ReadingRules.accepted(kind == .height ? reading.value / 100 : reading.value, for: kind.storedFieldSpec)
        numbers.note(value, for: kind.field)
        var text = "{\"" + kind.field + "\":" + number(value)
        for (name, extra) in reading.extras.sorted(by: { $0.key < $1.key }) {
            guard let spec = kind.builtInManifest.field(name) else {
                throw HealthError.invalidValue("a \(kind.builtInType.deviceType.name) has no field \"\(name)\"")
            }
            let accepted = try ReadingRules.accepted(extra, for: spec)
            numbers.note(accepted, for: name)
            text += ",\"" + name + "\":" + number(accepted)
        }
        for (name, words) in reading.texts.sorted(by: { $0.key < $1.key }) {
            guard let spec = kind.builtInManifest.field(name), spec.type == .string else {
                throw HealthError.invalidValue("a \(kind.builtInType.deviceType.name) has no text field \"\(name)\"")
            }
            text += ",\"" + name + "\":" + sourceJSON(words, longest: name == Field.hypnogram ? Int.max : 100)
        }
        // The HRV screen names where a measurement came from; the figures alone cannot say. An importer that
        // reads a device's own figure says so (`HRVSource.watch`); the rest hmon computed from beats.
        if kind == .heartRateVariabilityFromBeats, reading.texts[Field.source] == nil {
            text += ",\"" + Field.source + "\":\"" + HRVSource.beats.rawValue + "\""
        }
        return (text + "}", numbers)
    }

    /// What a reading's id is derived from: its stored data, except for food energy, which hmon stored
    /// in whole kcal until it kept it as recorded. Those readings keep the id of their whole-kcal form,
    /// so an export imported before then is still recognized, not added a second time.
    /// A span's total is known by its span alone (`ImportedReading.isSpanTotal`); a night by its figures.
    static func identity(_ reading: ImportedReading, json: String) -> String {
        if reading.isSpanTotal { return "span" }
        // A watch's own RMSSD was stamped as from beats before hmon told the two apart: its id stays that form's,
        // so a Fitbit export imported then is not added again.
        if reading.kind == .heartRateVariabilityFromBeats, reading.texts[Field.source] == HRVSource.watch.rawValue {
            var before = reading
            before.texts[Field.source] = nil
            return (try? self.json(before)) ?? json
        }
        // A night's window and stages, kept since schema version 31, leave its id as it was: the same export
        // imported again finds the night it made before, instead of adding a second reading of it.
        if reading.extras[Field.sleepWindowMinutes] != nil || reading.texts[Field.hypnogram] != nil {
            var bare = reading
            bare.extras[Field.sleepWindowMinutes] = nil
            bare.texts[Field.hypnogram] = nil
            return (try? self.json(bare)) ?? json
        }
        guard reading.kind == .dietaryEnergy, reading.extras.isEmpty else { return json }
        return "{\"" + reading.kind.field + "\":" + String(Int64(rounding: reading.value)) + "}"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(rounding: value)) : "\(value)"
    }

    /// A deterministic id: 12 hex digits of the time, then 20 of SHA-256 over user, source, kind,
    /// time and stored data (its `identity`). The same reading imported again (from this file or an
    /// overlapping export) gets the same id; the time prefix keeps the primary-key index written nearly
    /// in order, which makes a large import several times faster than fully random ids would.
    static func mid(userID: String, reading: ImportedReading, json: String) -> String {
        var key = userID
        key += "\u{1F}"
        key += reading.source
        key += "\u{1F}"
        key += reading.kind.rawValue
        key += "\u{1F}"
        key += String(reading.timestamp)
        key += "\u{1F}"
        key += identity(reading, json: json)
        let digest = key.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { hex in
            var time = UInt64(max(0, reading.timestamp))
            for i in stride(from: 11, through: 0, by: -1) {
                hex[i] = hexDigits[Int(time & 0x0F)]
                time >>= 4
            }
            var i = 12
            for byte in digest {
                guard i < 32 else { break }
                hex[i] = hexDigits[Int(byte >> 4)]
                hex[i + 1] = hexDigits[Int(byte & 0x0F)]
                i += 2
            }
            return String(decoding: hex, as: UTF8.self)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension ReadingKind {
    /// The built-in device type whose devices carry imported readings of this kind: the table's first.
    package var builtInType: BuiltInDeviceType {
        guard let type = deviceTypes.first else { preconditionFailure("no built-in device type carries \(field)") }
        return type
    }

    /// The manifest of `builtInType`, made once per kind: the importer asks for it on every reading.
    var builtInManifest: Manifest { Self.manifests[index] }
    /// The manifest field a reading of this kind is stored in, as its built-in type's manifest has it.
    var storedFieldSpec: FieldSpec { Self.fieldSpecs[index] }

    /// Per kind, in table order (`index`).
    private static let manifests = allCases.map(\.builtInType.manifest)
    private static let fieldSpecs = allCases.map { kind in
        guard let spec = kind.builtInType.manifest.field(kind.field) else {
            preconditionFailure("the \(kind.builtInType.deviceType.name) manifest has no field \(kind.field)")
        }
        return spec
    }
}
