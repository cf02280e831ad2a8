import Foundation
import HealthCore
import HealthModel

/// A bucketed mean's window as one reading, its late parts merged in as Life Dashboard Companion's docs
/// ask: "add the `sample_count`s … and weight the `avg` by `sample_count`
/// (`(avg1 * n1 + avg2 * n2) / (n1 + n2)`)". The app sends a window whole once, then again "with only the
/// late samples" when a record arrives late, so the part is added to what the window holds.
///
/// A part is merged once: a payload is stamped (`timestamp`), and one sent no later than the window's
/// reading was last written (the same payload again, or an older one) has nothing new for it. A payload
/// without a stamp cannot say so; the window then keeps the part with the larger count, which the docs call
/// "right in every case but" a late part.
enum WindowMerge {
    /// The data to put for `part` (its value under `kind.field`, its count under `Field.samples`) in the window
    /// `mid`; nil when the window already holds it.
    static func merged(_ part: [String: FieldValue], kind: ReadingKind, into mid: String, sentAt: Int64?,
                       service: LocalHealthService) async throws -> [String: FieldValue]? {
        guard let kept = try await service.storedReading(id: mid) else { return part }
        guard let mean = kept.data[kind.field]?.number, let count = kept.data[Field.samples]?.number,
              let partMean = part[kind.field]?.number, let partCount = part[Field.samples]?.number else {
            return part   // kept before counts were: the part replaces it, as a re-sent record does
        }
        if kept.data == part { return nil }
        guard let sentAt else { return partCount > count ? part : nil }
        guard sentAt > kept.cts else { return nil }
        let total = count + partCount
        guard HRVFields.isSampleCount(total) else { return nil }
        var whole = part
        whole[kind.field] = .number(((mean * count + partMean * partCount) / total * 1_000).rounded() / 1_000)
        whole[Field.samples] = .number(total)
        return whole
    }
}
