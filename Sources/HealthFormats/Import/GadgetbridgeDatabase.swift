import Foundation
import HealthCore
import HealthModel

/// Gadgetbridge's exported database (Data management → Export database: an SQLite file, often named
/// `Gadgetbridge`), read table by table (`GadgetbridgeTable.known`):
///
/// - `DEVICE`: each device's alias, else its name, names the hmon device its readings land on;
/// - weigh-ins, resting heart rates, SpO2 and the nightly HRV, one reading a sample;
/// - the activity tables' minutes, as each day's steps and (Garmin) active energy, one reading a day and
///   device at noon, a span total a later export of the same day replaces;
/// - Xiaomi's and Garmin's sleep tables, a reading a night with its stages (`GadgetbridgeSleep`).
///
/// The minutes' heart rate is counted, not kept: hmon keeps no heart rate a minute from any import (Apple
/// Health's are counted the same way), and a year of them would be half a million readings. Every other table
/// that holds rows is named in the tally, never an error. A known table without a column hmon needs stops the
/// import before anything is read.
enum Gadgetbridge {
    /// How Gadgetbridge's own charts bound a heart rate (`HeartRateUtils`): 255 and 0 mean no reading.
    static let validHeartRate: ClosedRange<Int64> = 10...250
    static let perMinuteHeartRate = "heart rate a minute (Gadgetbridge)"

    /// Whether the tables are Gadgetbridge's: its devices and their firmware attributes.
    static func isGadgetbridge(_ tables: Set<String>) -> Bool {
        tables.contains(GadgetbridgeTable.devices) && tables.contains("DEVICE_ATTRIBUTES")
    }

    static func read(_ url: URL, name: String, timeZone: TimeZone, emit: (ImportedReading) throws -> Void) throws -> ImportTally {
        let file = try SQLiteFile(url, name: name)
        let tables = Set(try file.tableNames())
        guard isGadgetbridge(tables) else {
            throw ImportError(file: name, problem: "an SQLite database, but not Gadgetbridge's (it has no DEVICE and DEVICE_ATTRIBUTES tables): give the file Gadgetbridge's Data management → Export database writes")
        }
        let present = GadgetbridgeTable.known.filter { tables.contains($0.name) }
        try requireColumns(GadgetbridgeTable.deviceColumns, of: GadgetbridgeTable.devices, in: file)
        for table in present { try requireColumns(table.columns, of: table.name, in: file) }

        var tally = ImportTally()
        let devices = try deviceNames(file)
        tally.tablesRead[GadgetbridgeTable.devices] = devices.count
        var reader = GadgetbridgeSamples(file: file, devices: devices, zone: timeZone)
        for table in present {
            let rows = try reader.read(table, tally: &tally, emit: emit)
            if rows > 0 { tally.tablesRead[table.name] = rows }
        }
        try reader.finish(tally: &tally, emit: emit)
        let read = Set(present.map(\.name)).union([GadgetbridgeTable.devices])
        for table in tables.sorted() where !read.contains(table) && !GadgetbridgeTable.bookkeeping.contains(table) {
            let rows = try file.rowCount(of: table)
            if rows > 0 { tally.tablesNotRead[table] = rows }
        }
        return tally
    }

    private static func requireColumns(_ needed: [String], of table: String, in file: SQLiteFile) throws {
        let columns = try file.columns(of: table)
        guard let missing = needed.first(where: { !columns.contains($0) }) else { return }
        throw ImportError(file: file.name, problem: "Gadgetbridge's table \(table) has no column \(missing), which hmon reads: the database is from a Gadgetbridge hmon does not know, or was changed by hand; export it again from a current Gadgetbridge, or report the Gadgetbridge version")
    }

    /// Each device's name in hmon: its alias where the person gave one, else the name Gadgetbridge shows; two
    /// devices of one name keep them apart by their identifier (the Bluetooth address).
    private static func deviceNames(_ file: SQLiteFile) throws -> [Int64: String] {
        var found: [(id: Int64, name: String, identifier: String)] = []
        try file.rows("SELECT \"_id\", NAME, ALIAS, IDENTIFIER FROM DEVICE ORDER BY \"_id\"") { row in
            guard let id = row.int(0) else { return }
            let alias = row.text(2)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let name = row.text(1)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            found.append((id, alias.isEmpty ? (name.isEmpty ? "Gadgetbridge device \(id)" : name) : alias, row.text(3) ?? "\(id)"))
        }
        let counts = Dictionary(found.map { ($0.name, 1) }, uniquingKeysWith: +)
        return Dictionary(uniqueKeysWithValues: found.map { device in
            (device.id, counts[device.name, default: 0] > 1 ? "\(device.name) (\(device.identifier))" : device.name)
        })
    }
}
