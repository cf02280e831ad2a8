import ArgumentParser
import HealthCore
import HealthModel

// The model's enums as command-line values; a malformed value is a usage error (exit 2).

extension Sex: ExpressibleByArgument {}
extension MassUnit: ExpressibleByArgument {}
extension EnergyUnit: ExpressibleByArgument {}

extension Day: ExpressibleByArgument {
    public init?(argument: String) { self.init(typed: argument) }
}

/// The BMR formulas by the names people type.
enum BMRFormulaArgument: String, CaseIterable, ExpressibleByArgument {
    case mifflinStJeor = "mifflin-st-jeor"
    case harrisBenedict = "harris-benedict"
    case katchMcArdle = "katch-mcardle"

    var formula: BMRFormula {
        switch self {
        case .mifflinStJeor: .mifflinStJeor
        case .harrisBenedict: .harrisBenedict
        case .katchMcArdle: .katchMcArdle
        }
    }
}
