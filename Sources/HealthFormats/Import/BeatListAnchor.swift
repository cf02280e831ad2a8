import HealthModel
/// Puts the beats of an Apple Health beat list on the timeline.
///
/// A beat's `time` is a time of day only (`6:14:48.94 PM`); the date comes from its record. The list is
/// anchored to the record's `startDate`, read in the UTC offset written in that date (the wall clock the
/// phone wrote the times in):
/// 1. The times are made continuous: a time that falls by more than twelve hours from the beat before
///    it has crossed midnight, and gains a day; any other step back is a malformed list.
/// 2. The first beat is placed on the record's day so that it lies within twelve hours of `startDate`.
/// 3. The list must then lie within the record (`startDate` to `endDate`, ± `slackSeconds`). When it
///    does not, but does once moved by a whole number of hours, it is moved: real exports hold lists an
///    hour off their record (a daylight-saving or time-zone change between measuring and writing).
enum BeatListAnchor {
    /// How far outside its record's start and end a beat may lie: the watch rounds the record's bounds.
    static let slackSeconds = 60.0

    enum Problem: Error, Equatable {
        /// A beat earlier than the one before it, other than across midnight.
        case goesBackwards
        /// The list lies outside its record, even moved by whole hours.
        case outsideRecord
    }

    /// Each beat's instant in ms since the epoch (with the fraction of a ms the times carry).
    /// - Parameters:
    ///   - timesOfDay: seconds since midnight, in list order; not empty.
    ///   - startMs, endMs: the record's `startDate` and `endDate`, ms since the epoch.
    ///   - utcOffsetSeconds: the offset written in `startDate` (`-0700` is −25,200).
    static func instants(timesOfDay: [Double], startMs: Int64, endMs: Int64, utcOffsetSeconds: Int) throws(Problem) -> [Double] {
        guard let first = timesOfDay.first else { return [] }
        var elapsed = [Double](repeating: 0, count: timesOfDay.count)
        for i in timesOfDay.indices.dropFirst() {
            var step = timesOfDay[i] - timesOfDay[i - 1]
            if step < -43_200 { step += 86_400 }
            guard step >= 0 else { throw .goesBackwards }
            elapsed[i] = elapsed[i - 1] + step
        }
        let startSeconds = Double(startMs) / 1000
        let startOfDay = positiveRemainder(startSeconds + Double(utcOffsetSeconds), 86_400)
        let fromStart = positiveRemainder(first - startOfDay + 43_200, 86_400) - 43_200
        let duration = max(0, Double(endMs - startMs) / 1000)
        let length = elapsed[elapsed.count - 1]
        func fits(_ shift: Double) -> Bool {
            let begin = fromStart - shift
            return begin >= -slackSeconds && begin + length <= duration + slackSeconds
        }
        var shift = 0.0
        if !fits(0) {
            let hours = (fromStart / 3600).rounded() * 3600
            guard hours != 0, fits(hours) else { throw .outsideRecord }
            shift = hours
        }
        return elapsed.map { startSeconds * 1000 + (fromStart - shift + $0) * 1000 }
    }

    private static func positiveRemainder(_ x: Double, _ m: Double) -> Double {
        let r = x.truncatingRemainder(dividingBy: m)
        return r < 0 ? r + m : r
    }
}
