import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// Issue 16 at the command line, with the built `hmon`: nothing from outside reaches the terminal raw,
/// commands that read do not write, numbers are plain numbers, writers wait for an import.
@Suite(.heavy) struct HardeningCommandLineTests {
    typealias Home = CommandLineTests.Home

    /// Whether `text` holds a scalar that would drive a terminal (a line break ends every line; it is fine).
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && TextRules.isUnsafe($0) }
    }

    /// Puts a device with `name` in the store behind the command line's back, as an old hmon, another
    /// program or a store edited by hand could have.
    static func plantDevice(named name: String, in home: Home) async throws {
        let queue = try DatabaseQueue(path: home.db.path)
        try await queue.write { db in
            let uid = try String.fetchOne(db, sql: "SELECT id FROM users LIMIT 1")!
            try db.execute(sql: """
                INSERT INTO devices (id, uid, dtid, name, created_at) VALUES ('planted', ?, ?, ?, 1)
                """, arguments: [uid, BuiltInDeviceType.withings.deviceType.id, name])
        }
    }

    // MARK: Names and text that cannot drive a terminal

    @Test func deviceAddRefusesControlAndBidiCharactersAndTheMessageIsEscaped() async throws {
        let home = try Home()
        try await home.userWithScale()
        for name in ["Evil\u{1B}[2J\u{1B}]0;pwned\u{07}Scale", "Scale\u{202E}elacS", "Zero\u{200B}width", "C1\u{9B}31m"] {
            let outcome = try await home.hmon(["device", "add", "--type", "Withings Device", "--name", name])
            #expect(outcome.status == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("hmon: the device name holds "), "\(outcome.stderr)")
            #expect(!Self.hasRawControl(outcome.stderr), "\(outcome.stderr.debugDescription)")
        }
        #expect(try await home.hmon(["device", "list"]).stdout.components(separatedBy: "\n").count == 3, "header, scale, end")
    }

    @Test func deviceListEscapesANameThatIsAlreadyStored() async throws {
        let home = try Home()
        try await home.userWithScale()
        try await Self.plantDevice(named: "Evil\u{1B}[2J\u{1B}]0;pwned\u{07}Scale\u{202E}", in: home)
        let listed = try await home.hmon(["device", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(!Self.hasRawControl(listed.stdout), "\(listed.stdout.debugDescription)")
        #expect(listed.stdout.contains(#"Evil\u{1B}[2J\u{1B}]0;pwned\u{7}Scale\u{202E}"#), "\(listed.stdout)")
    }

    @Test func importErrorsDoNotEchoRawBytes() async throws {
        let home = try Home()
        try await home.userWithScale()
        // A file name with an escape sequence, and content with a NUL and an escape where XML is expected.
        let file = home.folder.file("evil\u{1B}]0;pwned\u{07}.xml")
        try Data("<?xml version=\"1.0\"?>\n<HealthData>\u{0}\u{1B}[2J<Record type=\"\u{1B}[31m\"".utf8).write(to: file)
        let outcome = try await home.hmon(["import", file.path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasSuffix("nothing was imported\n"), "\(outcome.stderr.debugDescription)")
        #expect(!Self.hasRawControl(outcome.stderr), "\(outcome.stderr.debugDescription)")
        #expect(outcome.stderr.contains(#"evil\u{1B}]0;pwned\u{7}.xml"#), "\(outcome.stderr)")
    }

    @Test func anImportedSourceNameIsStoredVisiblyAndReported() async throws {
        let home = try Home()
        try await home.userWithScale()
        let file = home.folder.file("export.xml")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Evil&#x1b;[2J&#x1b;]0;pwned&#x07;Scale" unit="kcal" \
            creationDate="2024-01-02 07:15:00 +0100" startDate="2024-01-02 07:15:00 +0100" endDate="2024-01-02 07:15:00 +0100" value="80"/>
            </HealthData>

            """.utf8).write(to: file)
        let imported = try await home.hmon(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("device names with control or invisible characters"), "\(imported.stdout)")
        #expect(!Self.hasRawControl(imported.stdout))
        let listed = try await home.hmon(["device", "list"])
        #expect(listed.stdout.contains("Evil\u{FFFD}[2J\u{FFFD}]0;pwned\u{FFFD}Scale"), "\(listed.stdout)")
    }

    @Test func anArgumentEchoedInAUsageErrorIsEscaped() async throws {
        let home = try Home()
        let outcome = try await home.hmon(["snapshot", "--screen", "x\u{1B}[2J"])
        #expect(outcome.status == 2)
        #expect(!Self.hasRawControl(outcome.stderr), "\(outcome.stderr.debugDescription)")
    }

    // MARK: Read-only means read-only

    @Test func readCommandsOnAMissingOrEmptyFileSayThereIsNoStoreAndCreateNothing() async throws {
        let home = try Home()
        let missing = home.folder.file("no-such-folder/hmon.sqlite")
        let empty = home.folder.file("empty.sqlite")
        try #require(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        for path in [missing.path, empty.path] {
            for command in [["device", "list"], ["profile", "show"], ["user", "list"], ["trend"], ["snapshot"],
                            ["add", "weight", "70"]] {
                let outcome = try await home.hmon(command + ["--db", path], withDB: false)
                #expect(outcome.status == 1, "\(command) \(path): \(outcome.stderr)")
                #expect(outcome.stderr.hasPrefix("hmon: no hmon store at \(path): create one with `hmon user add NAME --db PATH`"),
                        "\(command): \(outcome.stderr)")
            }
        }
        // The built-in device types are listed without a store, and none is made for them.
        let types = try await home.hmon(["device", "types", "--db", missing.path], withDB: false)
        #expect(types.status == 0, "\(types.stderr)")
        #expect(types.stdout.contains("Withings Device  dt29673f0481b4401bb73a622353b96150"))
        #expect(!FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path))
        #expect(try Data(contentsOf: empty).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: empty.path + "-wal"))
    }

    @Test func userAddMakesANewStoreAndSaysSo() async throws {
        let home = try Home()
        let created = try await home.hmon(["user", "add", "alice", "--password-stdin"], stdin: "secret-pw\n")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "created user alice in \(home.db.path) (a new hmon store)\n")
        let again = try await home.hmon(["user", "add", "bob", "--password-stdin"], stdin: "secret-pw\n")
        #expect(again.stdout == "created user bob in \(home.db.path)\n")
    }

    /// Issue 29, case 10: an argument that is not UTF-8 (a device name typed in a Latin-1 terminal) was
    /// stored with U+FFFD in its place and exit 0. It is refused before anything is parsed or written.
    @Test func anArgumentThatIsNotUTF8IsRefusedAndNothingIsStored() async throws {
        let home = try Home()
        try await home.userWithScale()
        let before = try await home.snapshot()
        let script = #""$0" device add --type "Withings Device" --name $'Caf\xe9 scale' --db "$1""#
        let finished = try await SpawnedProcess.running(URL(fileURLWithPath: "/bin/bash"), ["-c", script, try HMonBinary.url().path, home.db.path],
                                              environment: home.environment, stdin: "")
        #expect(finished.status == 2, "\(finished.errors)")
        #expect(finished.errors == "hmon: argument 6 is not valid UTF-8 text: type it again in a UTF-8 terminal (check LANG)\n")
        #expect(try await home.snapshot() == before)
    }

    @Test func readCommandsWorkWhileAnotherProcessHoldsTheWriteLockAndChangeNothing() async throws {
        let home = try Home()
        try await home.userWithScale()
        try #require(await home.hmon(["add", "weight", "70"]).status == 0)
        let before = try ReadOnlyStoreTests.fingerprint(home.db)
        let other = try WriteLockHolder(path: home.db.path, change: "UPDATE devices SET name = 'uncommitted'")
        for command in [["device", "list"], ["profile", "show"], ["user", "list"], ["trend"], ["device", "types"],
                        ["snapshot", "--screen", "devices"]] {
            let outcome = try await home.hmon(command)
            // The lock is held until the loop ends, so a command that waited for it would fail with "busy"
            // after its 10 s patience: success itself shows it did not wait.
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
            #expect(!outcome.stdout.contains("uncommitted"))
        }
        try other.release()
        let after = try ReadOnlyStoreTests.fingerprint(home.db)
        #expect(after.0 == before.0, "a read command changed the file")
        #expect(after.1 == before.1, "a read command touched the file")
    }

    /// As root every file is writable, so this runs `hmon` as `nobody` on a 0444 copy it owns, the way a
    /// person lists a read-only backup.
    @Test func aReadOnlyCopyCanBeListedByItsOwner() async throws {
        guard let setpriv = InstalledTool.path(of: "setpriv"), getuid() == 0 else {
            Issue.record("skipped: needs root and setpriv(1) to run hmon as another user"); return
        }
        let home = try Home()
        try await home.userWithScale()
        let copyFolder = home.folder.file("copy")
        try FileManager.default.createDirectory(at: copyFolder, withIntermediateDirectories: true)
        let copy = copyFolder.appendingPathComponent("backup.sqlite")
        try FileManager.default.copyItem(at: home.db, to: copy)
        let nobody: [FileAttributeKey: Any] = [.ownerAccountID: 65534, .groupOwnerAccountID: 65534]
        try FileManager.default.setAttributes(nobody.merging([.posixPermissions: 0o755]) { $1 }, ofItemAtPath: copyFolder.path)
        try FileManager.default.setAttributes(nobody.merging([.posixPermissions: 0o444]) { $1 }, ofItemAtPath: copy.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home.folder.url.path)
        let hmon = try HMonBinary.url()
        guard access(hmon.path, X_OK) == 0 else { Issue.record("skipped: \(hmon.path) is not executable"); return }
        let outcome = try await SpawnedProcess.running(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", hmon.path,
                                                       "device", "list", "--db", copy.path],
                                             environment: home.environment.merging(["HOME": copyFolder.path]) { $1 })
        if outcome.errors.contains("Permission denied"), outcome.status != 0, !outcome.errors.hasPrefix("hmon:") {
            Issue.record("skipped: nobody cannot run \(hmon.path): \(outcome.errors)"); return
        }
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("Bathroom scale"), "\(outcome.output)")
    }

    // MARK: Numbers

    @Test func numbersThatAreNotPlainDecimalsAreRefusedWithTheUsualLine() async throws {
        let home = try Home()
        try await home.userWithScale()
        let before = try await home.snapshot()
        // Each number is refused in process by every command that takes one (`UsageMistakeTests`); here, that the
        // process says so in one short line and writes nothing.
        let numbers = ["nan", String(repeating: "9", count: 100_000)]
        for number in numbers {
            for arguments in [["add", "weight", number], ["add", "energy", "--active", number], ["profile", "set", "--height-cm", number],
                              ["add", "hrv", "--rmssd", number]] {
                let outcome = try await home.hmon(arguments)
                #expect(outcome.status == 2, "\(arguments.joined(separator: " ").prefix(60)): \(outcome.stderr.prefix(200))")
                #expect(outcome.stderr.contains("not a plain number"), "\(outcome.stderr.prefix(200))")
                #expect(outcome.stderr.filter { $0 == "\n" }.count == 1)
                #expect(outcome.stderr.count < 400, "the message repeats the whole argument")
            }
        }
        #expect(try await home.snapshot() == before)
    }

    @Test func negativeZeroIsStoredAsZeroAndMessagesKeepTheirDigits() async throws {
        let home = try Home()
        try await home.userWithScale()
        try #require(await home.hmon(["device", "add", "--type", "Activity Tracker", "--name", "Watch"]).status == 0)
        let added = try await home.hmon(["add", "energy", "--active", "-0"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added 0 kcal"), "\(added.stdout)")
        let data = try await home.store().read { db in try String.fetchAll(db, sql: "SELECT data FROM messages") }
        #expect(data == [#"{"activeEnergy":0}"#])

        let heavy = try await home.hmon(["add", "weight", "650.001"])
        #expect(heavy.stderr == "hmon: weight 650.0 kg is outside 1–650 kg: check the number and its unit\n")
        let light = try await home.hmon(["add", "weight", "0.001"])
        #expect(light.stderr == "hmon: weight 0.0 kg is outside 1–650 kg: check the number and its unit\n")
    }

    // MARK: Passwords, names and the full name

    @Test func aPasswordOnStandardInputThatIsNotUTF8IsRefused() async throws {
        let home = try Home()
        let sh = URL(fileURLWithPath: "/bin/sh")
        let outcome = try await SpawnedProcess.running(sh, ["-c", #"printf 'pw\377\376pw\n' | "$0" user add bob --password-stdin --db "$1""#,
                                                  try HMonBinary.url().path, home.db.path], environment: home.environment)
        #expect(outcome.status == 1)
        #expect(outcome.errors == "hmon: \(AccountRules.notUTF8)\n")
        #expect(!FileManager.default.fileExists(atPath: home.db.path), "a store was made for an account that was refused")
    }

    @Test func lookAlikeAndFoldedNamesAreRefusedAtTheCommandLine() async throws {
        let home = try Home()
        try #require(await home.hmon(["user", "add", "alice", "--password-stdin"], stdin: "secret-pw\n").status == 0)
        let folded = try await home.hmon(["user", "add", "ＡＬＩＣＥ", "--password-stdin"], stdin: "secret-pw\n")
        #expect(folded.stderr == "hmon: the user name \"ＡＬＩＣＥ\" is taken: choose another\n")
        let lookalike = try await home.hmon(["user", "add", "\u{0430}lice", "--password-stdin"], stdin: "secret-pw\n")
        #expect(lookalike.status == 1)
        #expect(lookalike.stderr.contains("looks like the existing user name \"alice\""), "\(lookalike.stderr)")
        #expect(try await home.hmon(["user", "list"]).stdout.components(separatedBy: "\n").count == 3)
    }

    @Test func aFullNameHasALengthLimitAndNoControlCharacters() async throws {
        let home = try Home()
        let long = try await home.hmon(["user", "add", "bob", "--full-name", String(repeating: "x", count: 101), "--password-stdin"],
                                 stdin: "secret-pw\n")
        #expect(long.status == 1)
        #expect(long.stderr == "hmon: the full name is longer than 100 characters: pass a shorter one\n")
        let control = try await home.hmon(["user", "add", "bob", "--full-name", "Bob\u{1B}[2J", "--password-stdin"], stdin: "secret-pw\n")
        #expect(control.status == 1)
        #expect(!Self.hasRawControl(control.stderr))
        #expect(!FileManager.default.fileExists(atPath: home.db.path))
    }

    // MARK: Writers beside an import

    @Test func aWriterWaitsForAnotherWriterWithAClearLineAndThenWrites() async throws {
        let home = try Home()
        try await home.userWithScale()
        let other = try WriteLockHolder(path: home.db.path)
        // The lock is let go once hmon has said it is waiting (it says so after a second): released on
        // what hmon printed, not after a guess at how long that takes.
        let writer = try SpawnedProcess(try HMonBinary.url(), ["add", "weight", "70", "--db", home.db.path],
                                        environment: home.environment.merging(["HMON_WRITE_WAIT": "60"]) { $1 })
        let errors = writer.errors
        let said = try await offThePool { () -> String in
            var text = ""
            while !text.contains("\n") {
                let data = errors.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        try other.release(commit: true)
        let rest = try await offThePool { (errors.readDataToEndOfFile(), writer.output.readDataToEndOfFile(), writer.wait()) }
        #expect(rest.2 == 0, "\(said)")
        #expect(said + String(decoding: rest.0, as: UTF8.self)
                == "hmon: waiting for another hmon writing to \(home.db.path) (an import can take a minute)…\n")
        #expect(String(decoding: rest.1, as: UTF8.self).hasPrefix("added 70.0 kg"))

        try other.lock()
        defer { try? other.release() }
        let gaveUp = try await home.hmon(["add", "weight", "71"], environment: ["HMON_WRITE_WAIT": "1.5"])
        #expect(gaveUp.status == 1)
        #expect(gaveUp.stderr.hasSuffix("hmon: \(home.db.path) is busy: another hmon (an import?) held it for longer than 1.5 s; nothing was written, try again\n"),
                "\(gaveUp.stderr)")
    }

    /// The issue's case, end to end: `hmon add weight` during a long `hmon import` waits for it, says so,
    /// and is written; the import stays whole.
    @Test func addWeightDuringAnImportWaitsAndBothAreWritten() async throws {
        let home = try Home()
        try await home.userWithScale()
        // About 40 MB of weigh-ins: a few seconds of import in a debug build.
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        let start = Date(timeIntervalSince1970: 1_500_000_000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"  // Apple Health's `2017-07-14 02:40:00 +0000`
        for minute in 0..<120_000 {
            let date = formatter.string(from: start.addingTimeInterval(Double(minute) * 60))
            xml += " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Scale\" unit=\"kg\" creationDate=\"\(date)\" "
                + "startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(70 + Double(minute % 100) / 10)\"/>\n"
        }
        xml += "</HealthData>\n"
        let file = home.folder.file("export.xml")
        try Data(xml.utf8).write(to: file)

        let importing = try SpawnedProcess(try HMonBinary.url(), ["import", file.path, "--quiet", "--db", home.db.path],
                                           environment: home.environment)
        // Wait until the import holds the write lock (a probe that may not wait is refused).
        var probe = Configuration()
        probe.busyMode = .immediateError
        let prober = try DatabaseQueue(path: home.db.path, configuration: probe)
        // A loaded machine starts the import slowly; an import that ended first fails the test below. A thread
        // of its own keeps watching from the moment the import starts: a task that suspended here could resume
        // only after the import's write, on a loaded pool, and miss it; and a pool thread that blocked here
        // would hold back every other test's tasks for as long.
        let locked = try await offThePool {
            Waiting.blockingUntil(within: .seconds(120), every: .milliseconds(5)) {
                guard importing.isRunning else { return true }
                do {
                    try prober.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE; ROLLBACK") }
                    return false
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                    return true
                } catch {
                    return false
                }
            } && importing.isRunning
        }
        if !locked {
            let (status, errors) = try await offThePool { (importing.wait(), importing.errors.readDataToEndOfFile()) }
            let said = String(decoding: errors, as: UTF8.self)
            Issue.record("the import ended (status \(status)) before the test saw it hold the lock: \(said)")
            return
        }

        let added = try await home.hmon(["add", "weight", "80", "--at", "2026-01-02 07:00"], environment: ["HMON_WRITE_WAIT": "300"])
        let importStatus = try await offThePool { importing.wait() }
        #expect(importStatus == 0)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added 80.0 kg"), "\(added.stdout)")
        // Said once it had waited a second; nothing else on standard error.
        #expect(added.stderr.isEmpty || added.stderr == "hmon: waiting for another hmon writing to \(home.db.path) (an import can take a minute)…\n",
                "\(added.stderr)")
        let count = try await home.store().read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") }
        #expect(count == 120_001)
    }
}
