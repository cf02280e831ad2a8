import Foundation
import HealthModel

/// What an import counts on either engine until it reports: per kind what was added and what was already
/// there, the skips by reason and by kind, the readings added per device, and the device names it had to
/// clean. Counters are arrays indexed by `ReadingKind.index` and by a device's slot, not dictionaries: the
/// import's hot loop counts millions of readings, and an array step costs no hashing.
public struct ImportCounts: Sendable {
    private var added = [Int](repeating: 0, count: ReadingKind.allCases.count)
    private var alreadyThere = [Int](repeating: 0, count: ReadingKind.allCases.count)
    private var skipped: [String: Int] = [:]
    private var skippedKinds: [ReadingKind: Int] = [:]
    private var addedPerDevice: [Int] = []
    private var deviceNames: [String] = []
    private var cleanedNames: [String] = []

    public init() {}

    public mutating func skip(_ reason: String, kind: ReadingKind) {
        skipped[reason, default: 0] += 1
        skippedKinds[kind, default: 0] += 1
    }

    /// The slot `count` takes for the device named `name`: one per device, however often it is found.
    public mutating func deviceSlot(named name: String) -> Int {
        if let slot = deviceNames.firstIndex(of: name) { return slot }
        deviceNames.append(name)
        addedPerDevice.append(0)
        return deviceNames.count - 1
    }

    /// One reading of the kind at `kindIndex`, on the device in `slot`: added, or already in the store.
    public mutating func count(kindAt kindIndex: Int, deviceSlot slot: Int, added wasAdded: Bool) {
        if wasAdded {
            added[kindIndex] += 1
            addedPerDevice[slot] += 1
        } else {
            alreadyThere[kindIndex] += 1
        }
    }

    /// Notes a source whose name held characters a device name may not, for the report.
    public mutating func noteCleaned(_ names: ImportDeviceName) {
        if names.wasCleaned, !cleanedNames.contains(names.name) { cleanedNames.append(names.name) }
    }

    public func finish(into tally: inout ImportTally) {
        for kind in ReadingKind.allCases {
            if added[kind.index] > 0 { tally.added[kind] = added[kind.index] }
            if alreadyThere[kind.index] > 0 { tally.alreadyThere[kind] = alreadyThere[kind.index] }
        }
        for (reason, count) in skipped { tally.skippedReasons[reason, default: 0] += count }
        for (kind, count) in skippedKinds { tally.skippedByKind[kind, default: 0] += count }
        for (name, count) in zip(deviceNames, addedPerDevice) where count > 0 { tally.addedByDevice[name, default: 0] += count }
        tally.cleanedDeviceNames = cleanedNames
    }
}

/// The key an import finds a source's device by, on both engines: a scale's readings from every source
/// share the person's one scale, so for a scale the source does not count.
public struct ImportDeviceKey: Hashable, Sendable {
    public let source: String
    public let type: BuiltInDeviceType

    public init(source: String, type: BuiltInDeviceType) {
        self.source = type == .withings ? "" : source
        self.type = type
    }
}
