import Foundation
import HealthModel

/// What an import found and did, for the end-of-import summary.
public struct ImportTally: Sendable, Equatable {
    /// Readings found in the file that passed the sanity checks, by kind.
    public var kept: [ReadingKind: Int] = [:]
    /// Of those, readings the store did not have yet.
    public var added: [ReadingKind: Int] = [:]
    /// Of those, readings the store already had (an earlier import, or repeated in the file).
    public var alreadyThere: [ReadingKind: Int] = [:]
    /// Readings of none of the kinds above (an hmon export's HRV measurements or meal descriptions), added
    /// and already there.
    public var addedOther = 0
    public var alreadyThereOther = 0
    /// Readings added per device, by the device's name as stored.
    public var addedByDevice: [String: Int] = [:]
    /// Readings of a kept kind that were skipped, by reason ("weight outside 1–650 kg").
    public var skippedReasons: [String: Int] = [:]
    /// The same skipped readings by kind, whoever skipped them (the file's reader or the store's time
    /// check), so a count per kind agrees with the total.
    public var skippedByKind: [ReadingKind: Int] = [:]
    /// Elements and record types hmon does not keep, by kind ("StepCount", "Workout").
    public var skippedKinds: [String: Int] = [:]
    /// Of a database (Gadgetbridge's), the tables read and their rows.
    public var tablesRead: [String: Int] = [:]
    /// The database's other tables that hold rows, and their rows: named, never an error.
    public var tablesNotRead: [String: Int] = [:]
    /// Profile fields the import filled ("date of birth", "sex", "height").
    public var profileFilled: [String] = []
    /// Device names made from sources that held characters `TextRules` refuses (control, bidi,
    /// zero-width), as stored, with those characters replaced by `TextRules.replacement`.
    public var cleanedDeviceNames: [String] = []

    public init() {}

    public var keptTotal: Int { kept.values.reduce(0, +) }
    public var addedTotal: Int { added.values.reduce(0, +) + addedOther }
    public var alreadyThereTotal: Int { alreadyThere.values.reduce(0, +) + alreadyThereOther }
    public var skippedReasonsTotal: Int { skippedReasons.values.reduce(0, +) }
    public var skippedKindsTotal: Int { skippedKinds.values.reduce(0, +) }

    package mutating func skip(_ reason: String) { skippedReasons[reason, default: 0] += 1 }

    /// Counts a skipped reading of `kind`, by `reason`.
    package mutating func skip(_ kind: ReadingKind, _ reason: String, count: Int = 1) {
        skippedReasons[reason, default: 0] += count
        skippedByKind[kind, default: 0] += count
    }
}
