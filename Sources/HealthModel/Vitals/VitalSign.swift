import Foundation

/// The vital signs hmon keeps, as the Vitals screen lists them: each reading's field that names it, and the
/// kind that writes its figure. A blood pressure is one line from its systolic reading, which carries the
/// diastolic (and the cuff's pulse as heart rate) beside it.
public enum VitalSign: String, Sendable, CaseIterable {
    case bloodPressure, oxygenSaturation, respiratoryRate, bodyTemperature, skinTemperatureChange

    /// The kind whose field marks a reading as this sign: the systolic for a blood pressure.
    public var kind: ReadingKind {
        switch self {
        case .bloodPressure: .bloodPressureSystolic
        case .oxygenSaturation: .oxygenSaturation
        case .respiratoryRate: .respiratoryRate
        case .bodyTemperature: .bodyTemperature
        case .skinTemperatureChange: .skinTemperatureChange
        }
    }

    /// The fields a reading of a vital sign may be found by: a source that sends a blood pressure's
    /// diastolic alone stores it alone, and it is still a blood pressure.
    public static var fields: [String] {
        allCases.map(\.kind.field) + [ReadingKind.bloodPressureDiastolic.field]
    }

    /// The signs `data` holds, in the screen's order (a reading may carry more than one).
    public static func signs(in data: [String: FieldValue]) -> [VitalSign] {
        allCases.filter { sign in
            if sign == .bloodPressure {
                return data[ReadingKind.bloodPressureSystolic.field]?.number != nil
                    || data[ReadingKind.bloodPressureDiastolic.field]?.number != nil
            }
            return data[sign.kind.field]?.number != nil
        }
    }
}
