import Foundation

extension Field {
    /// A night's minutes from its first stretch to its end (the reading's time): its window, counted back.
    /// Kept as minutes, not a time, since a time in ms lies beyond the bound every unnamed number keeps.
    public static let sleepWindowMinutes = "sleepWindow"
    /// A night's stages against the clock, as `Hypnogram.text` writes them.
    public static let hypnogram = "hypnogram"
}

/// The fields a night's reading keeps beside its minutes so its window and stages can be drawn and measured
/// (`docs/methods.md`, "A night's window and stages"); on activity trackers since schema version 31.
public enum SleepFields {
    public static let specs: [FieldSpec] = [
        FieldSpec(name: Field.sleepWindowMinutes, type: .double, unit: "min",
                  description: "minutes from the night's first stretch to its end"),
        FieldSpec(name: Field.hypnogram, type: .string, unit: nil,
                  description: "the night's stages a minute at a time, as runs (offset in minutes and stage letter)"),
    ]

    /// The fields of `night`'s window and stages (its window when it has one, its hypnogram when every
    /// stretch came with times), by field, ready to ride along its reading.
    public static func values(of night: SleepNight) -> (numbers: [String: Double], texts: [String: String]) {
        guard let start = night.startMs, night.endMs > start else { return ([:], [:]) }
        let numbers = [Field.sleepWindowMinutes: Double(night.endMs - start) / 60_000]
        guard let hypnogram = night.hypnogram, !hypnogram.minutes.isEmpty else { return (numbers, [:]) }
        return (numbers, [Field.hypnogram: hypnogram.text])
    }

    /// The window's start and the hypnogram a stored night's reading carries, read back; nil parts where it
    /// has none (a night kept before schema version 31, or of totals alone).
    public static func read(endMs: Int64, windowMinutes: Double?, hypnogram text: String?) -> (startMs: Int64?, hypnogram: Hypnogram?) {
        guard let windowMinutes, windowMinutes.isFinite, windowMinutes > 0, windowMinutes <= Double(Hypnogram.longestMinutes) else {
            return (nil, nil)
        }
        let start = endMs - Int64((windowMinutes * 60_000).rounded())
        guard let text, var hypnogram = Hypnogram(text: text, startMs: 0) else { return (start, nil) }
        // The stages end where the night does.
        hypnogram.startMs = endMs - Int64(hypnogram.minutes.count) * 60_000
        return (start, hypnogram)
    }
}
