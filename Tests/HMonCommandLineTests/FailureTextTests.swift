import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel
import HMonCommandLine
@testable import SQLiteStorage

/// The command line says what is wrong (the core's words) and how to fix it (its own).
@Suite struct FailureTextTests {
    @Test func aStoreThatCannotBeUsedIsReportedWithTheDbOptionThatFixesIt() throws {
        let folder = try TemporaryFolder()
        let notes = folder.file("notes.txt")
        try String(repeating: "not a database\n", count: 100).write(to: notes, atomically: true, encoding: .utf8)
        let error = #expect(throws: HealthError.self) { try LocalStore(url: notes, passwordHasher: .fastForTests) }
        #expect(error?.message == "\(notes.path) is not an hmon database (not an SQLite file)")
        #expect(FailureText.message(for: try #require(error))
                == "\(notes.path) is not an hmon database (not an SQLite file): pass another --db")

        let folderAsStore = #expect(throws: HealthError.self) { try LocalStore(url: folder.url, passwordHasher: .fastForTests) }
        #expect(FailureText.message(for: try #require(folderAsStore))
                == "\(folder.url.standardizedFileURL.path) is a folder, not an hmon database: pass another --db")
    }

    @Test func eachKindOfUnusableStoreGetsItsOwnAdvice() {
        func text(_ reason: UnusableStore.Reason) -> String {
            FailureText.message(for: HealthError.unusableStore(UnusableStore(path: "/s.sqlite", reason: reason)))
        }
        #expect(text(.writtenByNewerHmon) == "/s.sqlite was written by a newer hmon: upgrade hmon or pass another --db")
        #expect(text(.readOnly) == "/s.sqlite is read-only: check its permissions or pass another --db")
        #expect(text(.notPermitted(detail: "Permission denied"))
                == "cannot open /s.sqlite (Permission denied): check its permissions or pass another --db")
        #expect(text(.damaged(detail: "malformed")) == "/s.sqlite is damaged (malformed): restore it from a backup or pass another --db")
        #expect(text(.cannotCreateFolder(folder: "/ro", detail: "Permission denied"))
                == "cannot create the folder /ro for the database: Permission denied: pass another --db")
    }

    @Test func otherFailuresKeepTheirOwnMessage() {
        #expect(FailureText.message(for: HealthError.unknownUser("bob")) == "no user named \"bob\": create one with `hmon user add bob`")
        #expect(FailureText.message(for: CommandError("--comment goes with --consumed")) == "--comment goes with --consumed")
    }
}

/// A fresh folder in the temporary directory, removed when the test ends.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-command-line-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
