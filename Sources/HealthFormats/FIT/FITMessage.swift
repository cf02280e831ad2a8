/// One data message of a FIT file: its global message number (the profile's `mesg_num`) and its valid
/// fields by field number. Developer fields are not kept.
struct FITMessage: Sendable, Equatable {
    var global: UInt16
    var fields: [UInt8: FITValue]
    /// Where its record header is in the file, for messages about it.
    var offset: Int

    /// Field `number` per the profile: the stored value divided by `scale`, less `offset`; nil when absent.
    func value(_ number: UInt8, scale: Double = 1, offset: Double = 0) -> Double? {
        fields[number]?.number.map { $0 / scale - offset }
    }

    /// A `date_time` field (253 is every message's timestamp) in ms since the Unix epoch.
    func time(_ number: UInt8 = FITProfile.timestampField) -> Int64? {
        // A `date_time` is a uint32: a wider value is no time.
        guard case .unsigned(let values)? = fields[number], let first = values.first, let seconds = UInt32(exactly: first),
              seconds >= FITProfile.minimumDateTime else { return nil }
        return (Int64(seconds) + FITProfile.unixSecondsAtFITEpoch) * 1000
    }

    /// An integer field's first element, exactly; nil when absent, not an integer, or too large.
    func integer(_ number: UInt8) -> Int? {
        switch fields[number] {
        case .unsigned(let values)?: values.first.flatMap { Int(exactly: $0) }
        case .signed(let values)?: values.first.flatMap { Int(exactly: $0) }
        default: nil
        }
    }

    func text(_ number: UInt8) -> String? {
        guard case .text(let text)? = fields[number] else { return nil }
        return text
    }
}
