import Foundation
import HealthCore
import HealthModel

extension HMonViews.HRVView {
    /// The view as of `now`, read from the service: the `hrv` view of `hmon serve` and `hmon mcp`'s `hrv`
    /// tool both read it here. The newest measurement's range reaches 60 days before it, which may be up to
    /// 120 days back.
    public static func read(from service: any HealthService, now: Date) async throws -> HMonViews.HRVView {
        let from = now.addingTimeInterval(-2 * Double(HRVBaseline.windowDays) * 86_400).millisecondsSince1970
        let readings = try await service.readings(ReadingsQuery(from: max(0, from), to: now.millisecondsSince1970 + 1,
                                                                field: Field.rmssd, order: .asc))
        let history = readings.compactMap { message in message.data[Field.rmssd]?.number.map { (date: message.date, rmssdMs: $0) } }
        return HMonViews.HRVView(history: history, now: now)
    }
}
