import Foundation

/// A relation between two attributes that survived the false-discovery control.
///
/// With `offset` −1, `attribute2` is taken on the day before `attribute` ("on days after you eat more,
/// your weight goes up more": attribute `weight`, attribute2 `energy`), as Exist's offset reads.
public struct AttributeCorrelation: Sendable, Equatable {
    public var attribute: InsightAttribute
    public var attribute2: InsightAttribute
    /// 0: the same day; −1: `attribute2` the day before.
    public var offset: Int
    /// Spearman's rho of the two series (changes for trended attributes).
    public var value: Double
    /// The two-sided p-value of rho alone.
    public var p: Double
    /// Benjamini–Hochberg's adjusted value over every pair tested with it.
    public var q: Double
    /// The days with both values.
    public var days: Int
    /// The window's last day.
    public var date: Day
    /// The two measure one thing twice (`InsightAttribute.PairRelation.sameMeasure`): shown apart, as
    /// expected, never ranked as a finding.
    public var isExpected: Bool { attribute.relation(to: attribute2) == .sameMeasure }

    /// 1–5 from the adjusted value: q ≤ 0.05, 0.01, 0.001, 0.0001, 0.00001.
    public var stars: Int {
        [0.05, 0.01, 0.001, 0.000_1, 0.000_01].filter { q <= $0 }.count
    }

    /// Cohen's (1988) conventional bands for |r|, in words.
    public var strength: String {
        switch abs(value) {
        case ..<0.1: "negligible"
        case ..<0.3: "weak"
        case ..<0.5: "moderate"
        case ..<0.7: "strong"
        default: "very strong"
        }
    }

    public var starsDescription: String {
        ["", "likely", "very likely", "almost certain", "almost certain", "certain"][stars]
    }

    /// The earlier (or same-day) attribute, its clause, and the later one's.
    public var elements: [String] {
        let cause = attribute2, effect = attribute
        return [offset == 0 ? "On days" : "On days after", cause.more, value >= 0 ? effect.more : effect.less]
    }

    /// "On days after you eat more, your weight goes up more".
    public var sentence: String { "\(elements[0]) \(elements[1]), \(elements[2])" }

    /// The sentence with its strength and the days behind it.
    public var fullSentence: String { "\(sentence) (\(strength), \(days) days)" }

    /// "Weight change and energy eaten the day before: rho 0.52, q 0.0001, 284 days".
    public var description: String {
        func name(_ a: InsightAttribute) -> String { a.isTrended ? "\(a.label) change" : a.label }
        let when = offset == 0 ? "the same day" : "the day before"
        return "\(name(attribute)) and \(name(attribute2).lowercased()) \(when): Spearman's rho \(String(format: "%.2f", value)), "
            + "BH-adjusted q \(String(format: "%.2g", q)), \(days) days"
    }
}
