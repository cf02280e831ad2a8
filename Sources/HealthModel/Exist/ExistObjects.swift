import Foundation

/// The objects of Exist's API v2 (`exist-api.md`) made from what the insights computed: attribute names as
/// Exist's templates, values in Exist's units (energy in kJ, body fat 0–1) as Exist shows them (`existShown`). Served by
/// `/api/2/` and printed by `hmon insights --json`, so both say the same.
public enum ExistObjects {
    /// `{"attribute","date","overall","monday",…,"sunday"}`: medians over 60 days; a weekday without
    /// values is null.
    public static func average(_ a: AttributeAverages) -> [String: Any] {
        var object: [String: Any] = ["attribute": a.attribute.name, "date": a.date.description,
                                     "overall": number(a.attribute.existShown(a.overall))]
        for (name, median) in zip(AttributeAverages.weekdayNames, a.weekdays) {
            object[name] = median.map { number(a.attribute.existShown($0)) } ?? NSNull()
        }
        return object
    }

    /// A number for JSON, which has no NaN or infinity: a sum of stored values can overflow to one (two old
    /// readings of 1e308), and then the value is unknown, written null, instead of failing the whole answer.
    public static func number(_ value: Double) -> Any {
        value.isFinite ? value : NSNull()
    }

    /// Exist's correlation object; `p` is the pair's own p-value, `p_adjusted` (hmon's addition) the
    /// Benjamini–Hochberg value the stars come from.
    public static func correlation(_ c: AttributeCorrelation) -> [String: Any] {
        [
            "date": c.date.description, "period": c.days, "offset": c.offset,
            "attribute": c.attribute.name, "attribute2": c.attribute2.name,
            "value": number(c.value), "p": number(c.p), "p_adjusted": number(c.q), "percentage": number(abs(c.value) * 100),
            "stars": c.stars,
            "second_person": c.sentence, "second_person_elements": c.elements,
            "strength_description": "\(c.strength.prefix(1).uppercased())\(c.strength.dropFirst()) \(c.value >= 0 ? "positive" : "negative") relationship",
            "attribute_category": NSNull(),
            "stars_description": c.starsDescription, "description": c.description,
            "occurrence": NSNull(), "rating": NSNull(),
        ]
    }

    /// `{"created","target_date","type":{"name","period","priority","attribute"},"html","text"}`;
    /// priority 1 today, 2 a day, 3 the week, 4 the month; period the days it covers.
    public static func insight(_ f: Finding, now: Date) -> [String: Any] {
        let formatter = ISO8601DateFormatter()
        let days = [Finding.Period.today: 1, .day: 1, .week: 7, .month: 30][f.period]!
        return [
            "created": formatter.string(from: now), "target_date": f.date.description,
            "type": ["name": f.typeName, "period": days, "priority": f.period.rawValue,
                     "attribute": attributeSummary(f.attribute)] as [String: Any],
            "html": "<p>\(escaped(f.text))</p>", "text": f.text,
        ]
    }

    /// An attribute as Exist nests it (in an insight's type): name, label, group, priority and value type.
    public static func attributeSummary(_ attribute: InsightAttribute) -> [String: Any] {
        [
            "name": attribute.name, "label": attribute.label,
            "group": ["name": attribute.group, "label": attribute.groupLabel, "priority": attribute.groupPriority] as [String: Any],
            "priority": attribute.existPriority,
            "value_type": attribute.existValueType, "value_type_description": attribute.existValueTypeDescription,
        ]
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
