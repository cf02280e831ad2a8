import Foundation
import HealthCore
import HealthModel

/// Feeds inputs to the Health Auto Export reader as the payload the app posts, through `Importer.read` as
/// `hmon serve`'s store reads the spooled body.
///
/// The input's first byte picks an opening (the payload's `{"data": {"metrics": [` with a kept metric's
/// head, or none), so the fuzzer explores data points rather than spend its time finding the shape.
enum HealthAutoExportFuzz {
    static func read(_ input: [UInt8]) throws(FuzzFinding) {
        let openings = [
            #"{"data": {"metrics": [{"name": "weight_body_mass", "units": "kg", "data": ["#,
            #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"qty": "#,
            #"{"data": {"metrics": ["#,
            "",
        ]
        guard let first = input.first else { return }
        try ImportFuzz.read(Array(openings[Int(first) % openings.count].utf8) + input.dropFirst(), named: "payload.json")
    }
}
