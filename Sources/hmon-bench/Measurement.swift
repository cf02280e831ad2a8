import Foundation

/// Times an operation many times and reports the median and the 99th percentile.
struct Measurement {
    let name: String
    let samples: [Duration]

    static func run(_ name: String, warmup: Int = 50, iterations: Int, _ body: () async throws -> Void) async rethrows -> Measurement {
        for _ in 0..<warmup { try await body() }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = clock.now
            try await body()
            samples.append(clock.now - start)
        }
        return Measurement(name: name, samples: samples.sorted())
    }

    func microseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }

    var median: Double { microseconds(samples[samples.count / 2]) }
    var p99: Double { microseconds(samples[min(samples.count - 1, samples.count * 99 / 100)]) }

    var line: String {
        "\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) median \(String(format: "%7.1f", median)) µs   p99 \(String(format: "%7.1f", p99)) µs   (\(samples.count) runs)"
    }
}
