import Foundation
import Testing
@testable import HealthModel

/// Welltory's callback parameters, the links hmon makes for it, and files of beats.
@Suite struct WelltoryResultTests {
    @Test func theDocumentedExampleBecomesAReading() throws {
        let data = try WelltoryResult.reading(fromURL:
            "https://example.org/?stress=0.32&energy=0.75&productivity=0.63&rmssd=90.3&sdnn=45.1&power=100&stress_c=green&productivity_c=red&energy_c=yellow")
        #expect(data == [Field.stress: .number(0.32), Field.energy: .number(0.75), Field.productivity: .number(0.63),
                         Field.rmssd: .number(90.3), Field.sdnn: .number(45.1), Field.totalPower: .number(100),
                         Field.stressColor: .text("green"), Field.productivityColor: .text("red"),
                         Field.energyColor: .text("yellow"), Field.source: .text("welltory")])
    }

    @Test func aBadParameterIsNamed() {
        let cases: [(String, String)] = [
            ("stress=1.4", "the parameter stress is refused: stress 1.4 is outside 0–1"),
            ("rmssd=-3", "the parameter rmssd is refused: rmssd -3 ms is outside 0–1000 ms"),
            ("sdnn=abc", "the parameter sdnn=\"abc\" is not a number"),
            ("energy_c=purple", "the parameter energy_c is refused"),
            ("stress=0.1&stress=0.2", "the parameter stress is given twice"),
            ("utm_source=x", "no Welltory result in the URL"),
        ]
        for (query, message) in cases {
            let error = #expect(throws: HealthError.self) { try WelltoryResult.reading(fromURL: "https://h.example/?\(query)") }
            #expect(error?.message.hasPrefix(message) == true, "\(query): \(String(describing: error))")
        }
    }

    /// Issue 26, item 4: `productivity=null` refused the whole measurement. A parameter with no value is now
    /// left out and the rest kept; only a measurement with nothing at all is refused.
    @Test func parametersWithoutAValueAreLeftOutAndTheRestKept() throws {
        let data = try WelltoryResult.reading(fromURL: "https://h.example/?stress=0.32&productivity=null&energy=&power=undefined&rmssd=61.5&energy_c=")
        #expect(data == [Field.stress: .number(0.32), Field.rmssd: .number(61.5), Field.source: .text("welltory")])
        let nothing = #expect(throws: HealthError.self) { try WelltoryResult.reading(fromURL: "https://h.example/?stress=null&rmssd=") }
        #expect(nothing?.message.hasPrefix("no Welltory result in the URL") == true)
    }

    @Test func aWholeShareLinkKeepsOnlyItsToken() throws {
        let share = WelltoryLinks.share(token: "t0K-1")
        #expect(share == "https://app.welltory.com/share-measurement?token=t0K-1")
        let data = try WelltoryResult.reading(from: [("rmssd", "50"), ("token", share)])
        #expect(data[Field.shareToken] == .text("t0K-1"))
    }

    @Test func theMeasurementRequestCarriesTheCallbackAsOneParameter() throws {
        let link = WelltoryLinks.measurementRequest(callback: "http://127.0.0.1:8080/welltory/s3cr3t?a=b&c=d")
        #expect(link == "https://welltory.com/action/dds/measurement?source=APP&callback=http%3A%2F%2F127.0.0.1%3A8080%2Fwelltory%2Fs3cr3t%3Fa%3Db%26c%3Dd")
        let items = try #require(URLComponents(string: link)?.queryItems)
        #expect(items.first { $0.name == "callback" }?.value == "http://127.0.0.1:8080/welltory/s3cr3t?a=b&c=d")
    }

    @Test func aFileOfBeatsToleratesAHeaderAndBlankLines() throws {
        #expect(try RRIntervalFile.intervals(in: "RR interval (ms)\r\n812\n\n 798 \n805\n") == [812, 798, 805])
        let seconds = #expect(throws: HealthError.self) { try RRIntervalFile.intervals(in: "0.81\n0.79\n") }
        #expect(seconds?.message.hasPrefix("the intervals look like seconds") == true)
        let control = #expect(throws: HealthError.self) { try RRIntervalFile.intervals(in: "800\n\u{1B}[31mred\n") }
        #expect(control?.message == "line 2: \"?[31mred\" is not an interval in ms")
        #expect(throws: HealthError.self) { try RRIntervalFile.intervals(in: "header\n\n") }
    }
}
