import Foundation

/// A blood pressure's category by the 2017 ACC/AHA guideline (Whelton et al., Hypertension 71:e13–e115,
/// table 6), in adults: normal under 120 and under 80 mmHg; elevated 120–129 and under 80; stage 1
/// hypertension 130–139 or 80–89; stage 2, 140 or more or 90 or more. Where the two figures fall in
/// different categories the higher one counts; above 180 and/or 120 the guideline speaks of a
/// hypertensive crisis. A category of one reading, as a cuff shows it: the guideline diagnoses from the
/// mean of several readings on several occasions, and the screen says so.
public enum BloodPressureCategory: Int, Sendable, Comparable, CaseIterable {
    case normal, elevated, stage1, stage2, crisis

    public init(systolic: Double, diastolic: Double?) {
        let bySystolic: Self = systolic > 180 ? .crisis : systolic >= 140 ? .stage2 : systolic >= 130 ? .stage1
            : systolic >= 120 ? .elevated : .normal
        guard let diastolic else { self = bySystolic; return }
        let byDiastolic: Self = diastolic > 120 ? .crisis : diastolic >= 90 ? .stage2 : diastolic >= 80 ? .stage1 : .normal
        self = max(bySystolic, byDiastolic)
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The guideline's words.
    public var words: String {
        switch self {
        case .normal: "normal"
        case .elevated: "elevated"
        case .stage1: "stage 1 hypertension"
        case .stage2: "stage 2 hypertension"
        case .crisis: "hypertensive crisis range"
        }
    }

    /// The guideline's words cut to what tells the categories apart, for a table's column.
    public var shortWords: String {
        switch self {
        case .normal: "normal"
        case .elevated: "elevated"
        case .stage1: "stage 1"
        case .stage2: "stage 2"
        case .crisis: "crisis"
        }
    }
}
