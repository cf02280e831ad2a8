import Foundation
import HealthCore
import HealthModel

/// Reads an Apple Health export's start tags: keeps the `Record`s hmon wants, reads `Me`, and counts
/// everything else by kind. The scanner does the XML; this decides what the elements mean.
/// An HRV record's beat list is `AppleHealthBeatList`'s, between the record's start and end tags.
struct AppleHealthTagHandler: XMLTagHandler {
    /// Receives each kept reading (the store inserts it, a dry run counts it).
    var emit: (ImportedReading) throws -> Void
    var tally = ImportTally()
    var profile = ImportedProfile()
    /// The sleep records, made into nights once the whole export is read (`SleepNightReadings`).
    var sleep = SleepNights()
    private var skipped = KindCounter()
    private var lastSource: [UInt8] = []
    private var lastSourceName = ""
    private var beatList = AppleHealthBeatList()
    /// A blood pressure's halves, until each finds its other.
    private var pressures = BloodPressurePairs()

    init(emit: @escaping (ImportedReading) throws -> Void) {
        self.emit = emit
    }

    mutating func startTag(_ tag: XMLStartTag) throws {
        if tag.nameIs(Names.record) {
            try record(tag)
        } else if beatList.isOpen {
            beatList.child(tag)
        } else if tag.depth == 0 {
            guard tag.nameIs(Names.healthData) else {
                let name = String(decoding: tag.nameBytes, as: UTF8.self)
                throw ParseProblem("not an Apple Health export: the root element is <\(name)>, not <HealthData>", at: tag.offset)
            }
        } else if tag.nameIs(Names.me) {
            me(tag)
        } else if tag.depth == 1 {
            skipped.count(tag.nameBytes)
        }
    }

    mutating func endTag(depth: Int) throws {
        guard beatList.isOpen, let outcome = beatList.close(depth: depth) else { return }
        // A refused list is a skip of its beats (the report says why) and still a measurement: the record's
        // SDNN with the reason, counted under its own kind.
        if let problem = outcome.refused { tally.skip(problem.rawValue) }
        tally.kept[outcome.measurement.kind, default: 0] += 1
        try emit(outcome.measurement)
    }

    /// Emits the blood pressures' halves that found no other; call once the whole export is read.
    mutating func emitUnpairedPressures() throws {
        for half in pressures.unpaired() {
            tally.kept[half.kind, default: 0] += 1
            try emit(half)
        }
    }

    /// Flushes the counters into `tally`; call once at the end.
    mutating func finish() {
        skipped.flush()
        for (kind, count) in skipped.counts { tally.skippedKinds[kind, default: 0] += count }
        skipped.counts = [:]
    }

    private mutating func record(_ tag: XMLStartTag) throws {
        guard let typeAttribute = tag.attribute(Names.type) else {
            throw ParseProblem("a <Record> without a type", at: tag.offset)
        }
        let type = tag.bytes(typeAttribute.value)
        guard let kind = Names.keptKind(type) else {
            skipped.count(type)
            return
        }
        if kind == .sleep { return try sleepRecord(tag) }
        // One pass over the attributes for the four more this record needs.
        var foundValue: XMLAttribute?
        var foundDate: XMLAttribute?
        var unitAttribute: XMLAttribute?
        var sourceAttribute: XMLAttribute?
        for attribute in tag.attributes {
            let name = tag.bytes(attribute.name)
            switch name.count {
            case 4 where Names.unit.equals(name): unitAttribute = attribute
            case 5 where Names.value.equals(name): foundValue = attribute
            case 9 where Names.startDate.equals(name): foundDate = attribute
            case 10 where Names.sourceName.equals(name): sourceAttribute = attribute
            default: break
            }
        }
        func typeName() -> String { KindCounter.displayName(Array(type)) }
        func required(_ attribute: XMLAttribute?, _ name: String) throws -> XMLAttribute {
            guard let attribute else { throw ParseProblem("a \(typeName()) record without a \(name)", at: tag.offset) }
            return attribute
        }
        let valueAttribute = try required(foundValue, "value")
        let dateAttribute = try required(foundDate, "startDate")
        guard let number = tag.withValue(valueAttribute, ByteParsing.double) else {
            throw ParseProblem("bad number \"\(tag.string(valueAttribute))\" in a \(typeName()) record", at: valueAttribute.value.lowerBound)
        }
        guard let timestamp = tag.withValue(dateAttribute, ByteParsing.appleDate) else {
            throw ParseProblem("bad date \"\(tag.string(dateAttribute))\" in a \(typeName()) record (expected like 2016-04-18 08:25:32 -0700)",
                               at: dateAttribute.value.lowerBound)
        }
        let unit = unitAttribute.map(tag.string) ?? ""
        guard let value = UnitConversion.converted(number, for: kind, unit: unit) else {
            tally.skip("\(kind.importLabel) in unknown unit \"\(unit)\"")
            return
        }
        guard kind.saneRange.contains(value) else {
            tally.skip(UnitConversion.outOfRangeReason(kind))
            return
        }
        let source = sourceName(tag, sourceAttribute)
        if kind == .height { profile.noteHeight(value, at: timestamp) }
        if kind == .bloodPressureSystolic || kind == .bloodPressureDiastolic {
            if let whole = pressures.add(ImportedReading(kind: kind, source: source, timestamp: timestamp, value: value)) {
                tally.kept[.bloodPressureSystolic, default: 0] += 1
                try emit(whole)
            }
            return
        }
        tally.kept[kind, default: 0] += 1
        try emit(ImportedReading(kind: kind, source: source, timestamp: timestamp, value: value))
        if kind == .heartRateVariability && !tag.selfClosing {
            beatList.open(tag, source: source, startMs: timestamp, startDate: dateAttribute, appleSDNN: value)
        }
    }

    /// A sleep analysis record: a category sample whose `value` names its stage, kept with its start and end.
    /// A value hmon does not know is skipped with the reason.
    private mutating func sleepRecord(_ tag: XMLStartTag) throws {
        var found: [XMLAttribute?] = [nil, nil, nil, nil]
        for attribute in tag.attributes {
            let name = tag.bytes(attribute.name)
            if Names.value.equals(name) { found[0] = attribute }
            else if Names.startDate.equals(name) { found[1] = attribute }
            else if Names.endDate.equals(name) { found[2] = attribute }
            else if Names.sourceName.equals(name) { found[3] = attribute }
        }
        guard let valueAttribute = found[0] else { throw ParseProblem("a SleepAnalysis record without a value", at: tag.offset) }
        var times: [Int64] = []
        for (attribute, name) in [(found[1], "startDate"), (found[2], "endDate")] {
            guard let attribute else { throw ParseProblem("a SleepAnalysis record without a \(name)", at: tag.offset) }
            guard let time = tag.withValue(attribute, ByteParsing.appleDate) else {
                throw ParseProblem("bad date \"\(tag.string(attribute))\" in a SleepAnalysis record (expected like 2016-04-18 08:25:32 -0700)",
                                   at: attribute.value.lowerBound)
            }
            times.append(time)
        }
        let value = tag.string(valueAttribute)
        guard let stage = SleepStage(appleHealthValue: value) else {
            tally.skip("sleep record with unknown value \"\(value.prefix(60))\"")
            return
        }
        sleep.add(SleepSample(stage: stage, startMs: times[0], endMs: times[1], source: sourceName(tag, found[3])))
    }

    /// The record's `sourceName`, decoded once per run of records from the same source.
    private mutating func sourceName(_ tag: XMLStartTag, _ attribute: XMLAttribute?) -> String {
        guard let attribute else { return "Health" }
        let raw = tag.bytes(attribute.value)
        if !lastSource.equals(raw) {
            lastSource = Array(raw)
            let name = tag.string(attribute).trimmingCharacters(in: .whitespaces)
            lastSourceName = name.isEmpty ? "Health" : name
        }
        return lastSourceName
    }

    private mutating func me(_ tag: XMLStartTag) {
        if let attribute = tag.attribute(Names.dateOfBirth), let day = tag.withValue(attribute, ByteParsing.isoDay) {
            profile.birthDate = day
        }
        if let attribute = tag.attribute(Names.biologicalSex) {
            switch tag.string(attribute) {
            case "HKBiologicalSexFemale": profile.sex = .female
            case "HKBiologicalSexMale": profile.sex = .male
            default: break
            }
        }
    }
}

/// The names the handler compares against, as bytes.
private enum Names {
    static let record = Array("Record".utf8)
    static let healthData = Array("HealthData".utf8)
    static let me = Array("Me".utf8)
    static let type = Array("type".utf8)
    static let value = Array("value".utf8)
    static let unit = Array("unit".utf8)
    static let startDate = Array("startDate".utf8)
    static let endDate = Array("endDate".utf8)
    static let sourceName = Array("sourceName".utf8)
    static let dateOfBirth = Array("HKCharacteristicTypeIdentifierDateOfBirth".utf8)
    static let biologicalSex = Array("HKCharacteristicTypeIdentifierBiologicalSex".utf8)

    /// The `Record` types kept, as bytes, each with its kind (`ReadingSource.appleHealth` in the table).
    static let kept: [([UInt8], ReadingKind)] = ReadingKind.allCases.compactMap { kind in
        kind.sources[.appleHealth].map { (Array($0.key.utf8), kind) }
    }

    static func keptKind(_ type: UnsafeBufferPointer<UInt8>) -> ReadingKind? {
        for (name, kind) in kept where name.equals(type) { return kind }
        return nil
    }
}

/// Counts elements or record types by name, cheaply for the long runs of one type an export is made of.
struct KindCounter {
    private var last: [UInt8] = []
    private var lastCount = 0
    var counts: [String: Int] = [:]

    mutating func count(_ name: UnsafeBufferPointer<UInt8>) {
        if lastCount > 0 && last.equals(name) {
            lastCount += 1
            return
        }
        flush()
        last.removeAll(keepingCapacity: true)
        last.append(contentsOf: name)
        lastCount = 1
    }

    mutating func flush() {
        guard lastCount > 0 else { return }
        counts[Self.displayName(last), default: 0] += lastCount
        lastCount = 0
    }

    /// `HKQuantityTypeIdentifierStepCount` → `StepCount`.
    static func displayName(_ bytes: [UInt8]) -> String {
        var name = String(decoding: bytes, as: UTF8.self)
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKDataType", "HKCorrelationTypeIdentifier"]
        where name.hasPrefix(prefix) && name.count > prefix.count {
            name.removeFirst(prefix.count)
            break
        }
        return name
    }
}
