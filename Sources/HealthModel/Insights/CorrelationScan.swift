import Foundation

/// Every pair of attributes tested on the same day and with a one-day lag, kept only if it survives
/// Benjamini–Hochberg at `falseDiscoveryRate`.
public enum CorrelationScan {
    public static let windowDays = 365
    public static let minimumDays = 30
    public static let falseDiscoveryRate = 0.05

    /// One tested pair, before the adjustment.
    public struct Test: Sendable, Equatable {
        public var attribute: InsightAttribute
        public var attribute2: InsightAttribute
        public var offset: Int
        public var result: CorrelationResult
    }

    /// Every pair with `minimumDays` days in common in the `windowDays` ending `through`.
    public static func tests(_ daily: DailyAttributes, through: Day, windowDays: Int = windowDays) -> [Test] {
        let start = max(daily.days.lowerBound.ordinal, through.ordinal - windowDays + 1)
        let end = min(daily.days.upperBound.ordinal, through.ordinal)
        guard end - start + 1 >= minimumDays else { return [] }
        let base = daily.days.lowerBound.ordinal
        let attributes = InsightAttribute.allCases.filter { daily.hasValues($0) }
        let series = Dictionary(uniqueKeysWithValues: attributes.map { ($0, daily.correlated($0)) })
        var tests: [Test] = []

        func test(_ a: InsightAttribute, _ b: InsightAttribute, offset: Int) {
            let x = series[a]!, y = series[b]!
            var xs: [Double] = [], ys: [Double] = []
            // `b` on day d + offset, `a` on day d.
            for d in max(start, start - offset)...end {
                let xi = x[d - base], yi = y[d + offset - base]
                if !xi.isNaN && !yi.isNaN {
                    xs.append(xi)
                    ys.append(yi)
                }
            }
            guard xs.count >= minimumDays, let result = RankCorrelation.spearman(xs, ys) else { return }
            tests.append(Test(attribute: a, attribute2: b, offset: offset, result: result))
        }

        for (i, a) in attributes.enumerated() {
            for b in attributes[(i + 1)...] where a.isIndependent(of: b) { test(b, a, offset: 0) }
            for b in attributes where a.isIndependent(of: b) { test(a, b, offset: -1) }
        }
        return tests
    }

    /// The pairs that survive the false-discovery control, strongest evidence first.
    public static func correlations(_ daily: DailyAttributes, through: Day, windowDays: Int = windowDays) -> [AttributeCorrelation] {
        correlations(tests(daily, through: through, windowDays: windowDays), through: through)
    }

    /// The same from tests already made.
    public static func correlations(_ tests: [Test], through: Day) -> [AttributeCorrelation] {
        let q = BenjaminiHochberg.adjusted(tests.map(\.result.p))
        return zip(tests, q).compactMap { test, q in
            guard q <= falseDiscoveryRate else { return nil }
            return AttributeCorrelation(attribute: test.attribute, attribute2: test.attribute2, offset: test.offset,
                                        value: test.result.coefficient, p: test.result.p, q: q,
                                        days: test.result.count, date: through)
        }
        .sorted { ($0.q, -abs($0.value)) < ($1.q, -abs($1.value)) }
    }
}
