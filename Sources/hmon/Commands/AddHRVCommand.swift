import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon add hrv --rmssd 90.3 --stress 0.32 … | --from-url 'https://…?stress=…' | --rr FILE`: an HRV
/// measurement typed in, pasted from Welltory's callback link, or computed from beat-to-beat intervals.
/// Numbers are parsed unconditionally so a negative one (`--rmssd -3`) reaches the range check and is named.
struct AddHRVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hrv", abstract: "Add an HRV measurement.")

    @OptionGroup var store: StoreOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Welltory's stress, 0–1.", valueName: "fraction"), transform: NumberArgument.parse) var stress: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Welltory's energy, 0–1.", valueName: "fraction"), transform: NumberArgument.parse) var energy: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Welltory's productivity, 0–1.", valueName: "fraction"), transform: NumberArgument.parse) var productivity: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("RMSSD in ms.", valueName: "ms"), transform: NumberArgument.parse) var rmssd: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("SDNN in ms.", valueName: "ms"), transform: NumberArgument.parse) var sdnn: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Total power in ms².", valueName: "ms²"), transform: NumberArgument.parse) var power: Double?
    @Option(name: .customLong("heart-rate"), parsing: .unconditional, help: ArgumentHelp("Heart rate in b/min.", valueName: "b/min"), transform: NumberArgument.parse) var heartRate: Double?

    @Option(name: .customLong("from-url"),
            help: ArgumentHelp("The link Welltory opened, with its results (quote it).", valueName: "url"))
    var fromURL: String?

    @Option(help: ArgumentHelp("A file of beat-to-beat intervals, one in ms per line.", valueName: "file"))
    var rr: String?

    @Option(help: ArgumentHelp("When: \"YYYY-MM-DD HH:MM\" or \"HH:MM\" today (default: now).", valueName: "time"))
    var at: String?

    @Option(help: ArgumentHelp("The HRV meter's id or name (default: your first).", valueName: "device"))
    var device: String?

    private var typedFigures: [String: Double] {
        [Field.stress: stress, Field.energy: energy, Field.productivity: productivity, Field.rmssd: rmssd,
         Field.sdnn: sdnn, Field.totalPower: power, Field.heartRate: heartRate].compactMapValues { $0 }
    }

    func validate() throws {
        let sources = [!typedFigures.isEmpty, fromURL != nil, rr != nil].filter { $0 }.count
        if sources != 1 {
            throw ValidationError("pass figures (--rmssd, --stress …), or --from-url URL, or --rr FILE: one of the three")
        }
    }

    func run() async throws {
        let calendar = Calendar.current
        let now = Date()
        let time = try at.map { try LocalTime.parse($0, now: now, calendar: calendar) } ?? now
        var note: String?
        let data: [String: FieldValue]
        if let fromURL {
            data = try WelltoryResult.reading(fromURL: fromURL)
        } else if let rr {
            let text: String
            do { text = try String(contentsOfFile: rr, encoding: .utf8) } catch {
                throw CommandError("cannot read \(rr): pass a text file with one interval in ms per line")
            }
            let analysis: HRVAnalysis
            do {
                analysis = try HRVAnalysis(rrMs: try RRIntervalFile.intervals(in: text))
            } catch HealthError.invalidValue(let problem) {
                // Which file, then what is wrong with it: a list refused by `BeatListQuality` (too few beats,
                // too many artefacts, no variability) stores nothing.
                throw CommandError("\(rr): \(problem)")
            }
            data = analysis.readingData
            note = HRVText.cleaning(analysis)
        } else {
            var typed = typedFigures.mapValues { FieldValue.number($0) }
            typed[Field.source] = .text(HRVSource.manual.rawValue)
            data = typed
        }
        // The service applies `ReadingRules` too; asking here first reports a wrong figure before a missing device.
        let accepted = try ReadingRules.accepted(data, manifest: BuiltInDeviceType.hrvMeter.manifest, typeName: "HRV Meter")
        let opened = try await StoreOpener(store).open(.readWrite)
        let meter = try await DevicePicker.pick(device, recording: Field.rmssd, for: opened, suggestedType: .hrvMeter)
        try await opened.service.post(NewMessage(sdid: meter.id, ts: time.millisecondsSince1970, data: accepted))
        printEscaped("added an HRV measurement to \(meter.name) at \(LocalTime.format(time, calendar: calendar)): \(HRVText.summary(accepted))")
        if let note { printEscaped(note) }
    }
}
