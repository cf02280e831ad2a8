import ArgumentParser
import Foundation
import HealthCore
import HMonCommandLine

/// `hmon import FILE [--user NAME] [--db PATH] [--dry-run] [--quiet]`.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring readings in from an Apple Health export, a Withings weight.csv or an openScale CSV.",
        discussion: """
        The format is recognized from the file's content. Apple Health: the export.zip the Health app \
        makes (read as a stream, never unpacked) or its export.xml; weights, heights, active, resting and \
        consumed energy and HRV are kept, and the profile's empty birth date, sex and height are filled. \
        A file is imported whole or not at all, and importing it again adds nothing.
        """
    )

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("export.zip, export.xml, weight.csv or an openScale CSV export.", valueName: "file"))
    var file: String

    @Flag(help: "Read the file and report what would be added, writing nothing.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func run() async throws {
        let url = URL(fileURLWithPath: file)
        let name = url.lastPathComponent
        let opened = try await StoreOpener(store).open(.readWrite)
        guard let local = opened.service as? LocalHealthService else {
            throw CommandError("import writes to a local store only: pass --db PATH")
        }
        let reporter = ImportProgressReporter(file: name, enabled: !quiet && isatty(STDERR_FILENO) == 1)
        let started = Date()
        let result: ImportResult
        do {
            result = try await local.store.importFile(url, userID: opened.user.id, dryRun: dryRun, timeZone: .current, now: Date(),
                                                     progress: reporter.update)
        } catch let error as ImportError {
            reporter.clear()
            throw CommandError("\(error); nothing was imported")
        } catch {
            reporter.clear()
            throw error
        }
        reporter.clear()
        guard !quiet else { return }
        if reporter.enabled {
            let lines = ImportReportText.summary(file: name, result: result, elapsed: Date().timeIntervalSince(started), dryRun: dryRun)
            printEscaped(lines.joined(separator: "\n"))
        } else {
            printEscaped(ImportReportText.oneLine(file: name, result: result, dryRun: dryRun))
        }
    }
}
