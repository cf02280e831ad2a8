import ArgumentParser
import Foundation
import HealthCore
import HealthFormats
import HealthModel

/// `hmon-bench import-read FILE`: how fast the importer reads an export on its own, without a store
/// (`Benchmarks/import-bench.sh` times the whole `hmon import`).
struct ImportReadBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-read",
        abstract: "Read an export with the importer, keeping nothing, and report MB/s.")

    @Argument(help: "An Apple Health export.xml or export.zip, or a scale CSV.")
    var file: String

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        let clock = ContinuousClock()
        let start = clock.now
        var readings = 0
        let result = try Importer.read(url) { _ in readings += 1 }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let megabytes = Double(size) / 1_000_000
        print("\(url.lastPathComponent): " + String(format: "%.1f MB in %.2f s = %.0f MB/s", megabytes, seconds, megabytes / seconds)
              + "; \(readings) readings kept, \(result.tally.skippedKindsTotal) other elements skipped")
    }
}
