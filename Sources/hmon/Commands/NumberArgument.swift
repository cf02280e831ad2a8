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
