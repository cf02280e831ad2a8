import ArgumentParser

/// `hmon-bench`: speed measurements, run in release mode (`swift run -c release hmon-bench …`).
/// Each capability adds its own subcommand.
@main
struct HMonBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hmon-bench",
        abstract: "Measure hmon's speed (build with -c release).",
        subcommands: [StoreBenchmark.self, ImportReadBenchmark.self, DashboardBenchmark.self, TrendBenchmark.self,
                      InsightsBenchmark.self]
    )
}
