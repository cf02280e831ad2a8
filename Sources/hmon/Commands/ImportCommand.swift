import ArgumentParser
import Foundation
import HealthCore
import HealthFormats
import HealthModel
import HMonCommandLine

/// `hmon import FILE [--weight-unit kg|lb] [--columns COLUMN=NAME,…] [--user NAME] [--db PATH] [--dry-run] [--quiet] [--json]`.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring readings in from an Apple Health export, a Samsung Health, Fitbit or Garmin Connect download, a Garmin device's FIT files, a scale app's CSV or an hmon export.",
        discussion: """
        The format is recognized from the file's content. Apple Health: the export.zip the Health app \
        makes (read as a stream, never unpacked) or its export.xml; weights, heights, active, resting and \
        consumed energy and HRV are kept, and the profile's empty birth date, sex and height are filled. \
        A file is imported whole or not at all, and importing it again adds nothing. Weights, heights and \
        body composition from every source land on your one scale (the oldest, or a new "Scale"), each \
        reading keeping its source in a `source` field. A Fitbit export from Google Takeout (its folder or \
        zip) brings weigh-ins with body fat, nightly HRV (RMSSD) and resting and active energy a day; its \
        weights are in the account's unit, read from Your Profile/Profile.csv or given with --weight-unit. \
        A Garmin watch's GARMIN folder (as it shows over USB, or zipped) or one .fit file brings weigh-ins \
        with body composition, blood pressures with pulse, nightly HRV and nights with stages, each file \
        known by its FIT file type. Garmin Connect's "Export your data" zip (or its folder) brings the FIT \
        files uploaded to it and its own weigh-ins, nights and steps, active energy and resting heart rate a day. \
        Gadgetbridge's exported database (as it is or zipped) brings weigh-ins, nights with stages, resting \
        heart rate, SpO2, nightly HRV and steps and active energy a day, on devices named as in Gadgetbridge. \
        Any CSV with a date and a weight column comes in with --columns naming them. `hmon export`'s CSV and JSON come back with their \
        ids, devices and fields. The summary lists what was added per kind and per device and what was \
        skipped and why; --json prints it as one JSON object.
        """
    )

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("export.zip, export.xml, weight.csv, a scale app's CSV, a Samsung Health or Fitbit download (folder or zip), a Garmin watch's GARMIN folder (or its zip) or .fit file, Garmin Connect's export zip, Gadgetbridge's database, or an hmon export.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The unit of the weights of a Fitbit export whose Profile.csv does not say, or of a CSV read with --columns (kg unless given).",
                               valueName: "kg|lb"))
    var weightUnit: MassUnit?

    @Option(help: ArgumentHelp("A CSV's names for the columns hmon reads: date, weight (both needed; a column not named is looked for by these names), time, fat (in %).",
                               valueName: "date=NAME,weight=NAME,…"))
    var columns: String?

    @Flag(help: "Read the file and report what would be added, writing nothing.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Print the summary as one JSON object (for scripts).")
    var json = false

    func validate() throws {
        if quiet, json { throw ValidationError("--quiet prints nothing and --json prints the summary: choose one") }
        _ = try importOptions()
    }

    /// What the flags tell the importers.
    func importOptions() throws -> ImportOptions {
        ImportOptions(weightUnit: weightUnit, columns: try columns.map(ImportColumnsArgument.parse) ?? [:])
    }

    func run() async throws {
        let url = URL(fileURLWithPath: file)
        let name = url.lastPathComponent
        // A dry run only reads: on a store it may not write it runs on a scratch copy (LocalStore.onScratchCopy).
        let opened = try await StoreOpener(store).open(dryRun ? .readOnly : .readWrite)
        guard let local = opened.service as? LocalHealthService else {
            throw CommandError("import writes to a local store only: pass --db PATH")
        }
        let reporter = ImportProgressReporter(file: name, enabled: !quiet && !json && isatty(STDERR_FILENO) == 1)
        let started = Date()
        let result: ImportResult
        do {
            var options = try importOptions()
            options.path = .imported
            if Self.isHMonExport(url), options.columns.isEmpty {
                result = try await local.store.importExport(url, userID: opened.user.id, dryRun: dryRun, now: Date())
            } else {
                result = try await local.store.importFile(url, userID: opened.user.id, dryRun: dryRun, timeZone: .current,
                                                         options: options, now: Date(), progress: reporter.update)
                // A weigh-in or night the file shares with a link's is counted once, the link's by default.
                if !dryRun { try await local.settleDuplicates(after: result.tally) }
            }
        } catch let error as ImportError {
            reporter.clear()
            throw CommandError("\(error); nothing was imported")
        } catch {
            reporter.clear()
            throw error
        }
        reporter.clear()
        guard !quiet else { return }
        if json {
            print(ImportReportJSON(file: name, result: result, dryRun: dryRun).text)
            return
        }
        // The same summary with or without a terminal: a log or a script sees what a person sees.
        let lines = ImportReportText.summary(file: name, result: result, elapsed: Date().timeIntervalSince(started), dryRun: dryRun)
        printEscaped(lines.joined(separator: "\n"))
    }

    /// Whether the file is `hmon export`'s own CSV or JSON (from its first bytes).
    static func isHMonExport(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 512)) ?? Data()
        return ExportReader.detect(Array(head)) != nil
    }
}
