import ArgumentParser
import HealthCore
import HealthModel

/// Numbers on the command line go through the core's `NumberText` (not `Double(_:)`, which takes "nan",
/// "inf", "0x40" and digit strings of any length): `@Option(transform: NumberArgument.parse)`.
enum NumberArgument {
    static func parse(_ text: String) throws -> Double {
        guard let value = NumberText.decimal(text) else {
            throw ValidationError("not a plain number: pass digits like 72.4 (no nan, inf or hexadecimal)")
        }
        return value
    }
}

/// A height typed with its unit (`TypedQuantity.cm`): "5 ft 7 in", "5'7\"", "170 cm", "1.7 m"; a bare number is cm.
enum HeightArgument {
    static func parse(_ text: String) throws -> Double {
        guard let cm = TypedQuantity.cm(text) else {
            throw ValidationError("not a height: pass it with its unit, like \"5 ft 7 in\" or 170 cm")
        }
        return cm
    }
}
