import HealthCore
import HealthModel

/// How much time the weight chart covers; `[` and `]` step through them.
public enum ChartSpan: Int, Sendable, CaseIterable {
    case days30, days90, year, all

    /// Days shown ending today; nil for all: from the first weigh-in.
    public var days: Int? {
        switch self {
        case .days30: 30
        case .days90: 90
        case .year: 365
        case .all: nil
        }
    }

    public var label: String {
        switch self {
        case .days30: "30 days"
        case .days90: "90 days"
        case .year: "1 year"
        case .all: "all"
        }
    }

    public var longer: ChartSpan { ChartSpan(rawValue: min(rawValue + 1, ChartSpan.all.rawValue))! }
    public var shorter: ChartSpan { ChartSpan(rawValue: max(rawValue - 1, 0))! }
}
