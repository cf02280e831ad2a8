import Foundation

/// A night's stages against the clock, one stage a minute from the night's first stretch to its end: what
/// the Sleep screen draws and what the per-night measures and the Sleep Regularity Index read.
///
/// Made from every device's samples of one night (`SleepNights`): where two devices name a minute
/// differently, the minute takes the stage first in `precedence` (an asleep stage over awake, so a minute
/// counts as asleep here exactly when it does in the night's time asleep; a named stage over "asleep"
/// without one; awake over merely in bed). A minute no sample covers is `nil`.
public struct Hypnogram: Sendable, Equatable {
    /// The first minute's start, ms since the epoch.
    public var startMs: Int64
    /// One entry a minute; nil where nothing was recorded.
    public var minutes: [SleepStage?]

    public init(startMs: Int64, minutes: [SleepStage?]) {
        self.startMs = startMs
        self.minutes = minutes
    }

    /// The end of the last minute, ms since the epoch.
    public var endMs: Int64 { startMs + Int64(minutes.count) * 60_000 }

    /// The most minutes a hypnogram holds: a night's day runs 24 hours (`SleepNights.day`).
    public static let longestMinutes = 1_440

    /// Which stage a minute two samples name takes: the first of these.
    public static let precedence: [SleepStage] = [.deep, .rem, .core, .unspecified, .awake, .inBed]

    /// The minutes of `samples` from their first start to `endMs` (at most the last `longestMinutes`), each
    /// sample's start and end rounded to the nearest minute of that grid.
    public init(samples: [SleepSample], endMs: Int64) {
        let first = samples.map(\.startMs).min() ?? endMs
        let count = min(Self.longestMinutes, max(0, Int((endMs - first + 30_000) / 60_000)))
        let start = endMs - Int64(count) * 60_000
        var grid = [SleepStage?](repeating: nil, count: count)
        var rank = [Int](repeating: Int.max, count: count)
        for sample in samples {
            let from = max(0, Int((sample.startMs - start + 30_000).floorDivided(by: 60_000)))
            let to = min(count, Int((sample.endMs - start + 30_000).floorDivided(by: 60_000)))
            guard from < to, let order = Self.precedence.firstIndex(of: sample.stage) else { continue }
            for minute in from..<to where order < rank[minute] {
                grid[minute] = sample.stage
                rank[minute] = order
            }
        }
        self.init(startMs: start, minutes: grid)
    }

    /// A run of minutes of one stage, as the text keeps it and the screen draws it.
    public struct Run: Sendable, Equatable {
        /// Minutes after the hypnogram's start.
        public var offset: Int
        public var length: Int
        public var stage: SleepStage?

        public init(offset: Int, length: Int, stage: SleepStage?) {
            self.offset = offset
            self.length = length
            self.stage = stage
        }
    }

    /// The minutes as runs of one stage, in time order.
    public var runs: [Run] {
        var runs: [Run] = []
        for (minute, stage) in minutes.enumerated() {
            if let last = runs.last, last.stage == stage {
                runs[runs.count - 1].length += 1
            } else {
                runs.append(Run(offset: minute, length: 1, stage: stage))
            }
        }
        return runs
    }

    /// The letter a stage is written as in `text`: `b` in bed, `w` awake, `c` core (light), `d` deep, `r` REM,
    /// `s` asleep without a stage, `-` nothing recorded.
    static let letters: [SleepStage?: Character] = [
        .inBed: "b", .awake: "w", .core: "c", .deep: "d", .rem: "r", .unspecified: "s", nil: "-",
    ]

    /// The minutes as the reading keeps them (`Field.hypnogram`): each run as its offset in minutes and its
    /// stage's letter, comma-separated, ended by the total and a full stop: `0b,15c,135d,195r,255w,265c,480.`.
    /// The start is kept apart (`Field.sleepWindowMinutes`, counted back from the reading's time).
    public var text: String {
        runs.map { "\($0.offset)\(Self.letters[$0.stage]!)" }.joined(separator: ",")
            + (minutes.isEmpty ? "" : ",") + "\(minutes.count)."
    }

    /// Reads `text` back for a night whose minutes start at `startMs`; nil for text that is not one.
    public init?(text: String, startMs: Int64) {
        let parts = text.split(separator: ",")
        guard let last = parts.last, last.hasSuffix("."), let total = Int(last.dropLast()),
              (0...Self.longestMinutes).contains(total) else { return nil }
        var minutes: [SleepStage?] = []
        minutes.reserveCapacity(total)
        var runs: [(offset: Int, stage: SleepStage?)] = []
        for part in parts.dropLast() {
            guard let letter = part.last, let stage = Self.letters.first(where: { $0.value == letter }),
                  let offset = Int(part.dropLast()), offset >= (runs.last.map { $0.offset + 1 } ?? 0), offset < total
            else { return nil }
            runs.append((offset, stage.key))
        }
        guard runs.first?.offset ?? 0 == 0 else { return nil }
        for (index, run) in runs.enumerated() {
            let end = index + 1 < runs.count ? runs[index + 1].offset : total
            minutes.append(contentsOf: repeatElement(run.stage, count: end - run.offset))
        }
        self.init(startMs: startMs, minutes: minutes)
    }
}

/// In JSON as its start and its text: `{"startMs": 1704926700000, "text": "0b,15c,…,480."}`.
extension Hypnogram: Codable {
    private enum CodingKeys: String, CodingKey { case startMs, text }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(Int64.self, forKey: .startMs)
        let text = try container.decode(String.self, forKey: .text)
        guard let read = Hypnogram(text: text, startMs: start) else {
            throw DecodingError.dataCorruptedError(forKey: .text, in: container, debugDescription: "not a hypnogram's runs")
        }
        self = read
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(startMs, forKey: .startMs)
        try container.encode(text, forKey: .text)
    }
}

extension Int64 {
    /// Division rounding toward minus infinity, so a sample a few seconds before the grid's start lands
    /// on minute 0, not on "minute −0".
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
