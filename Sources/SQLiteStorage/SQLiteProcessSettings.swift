import CSQLiteSettings
import HealthCore
import HealthModel

/// SQLite's process-wide settings, applied once before the first connection opens.
enum SQLiteProcessSettings {
    /// Memory statistics off: with them on, each of SQLite's allocations takes a process-wide mutex to
    /// keep counts hmon never reads. Measured on the import of a generated 138 MB export (perf, release
    /// build): those mutexes were a tenth of the writing thread's time, and turning the counts off made
    /// the import 9 % faster by wall clock (0.69 → 0.63 s, four runs each, alternated). The server's
    /// readers, each on a thread of its own, stop contending for that mutex too.
    ///
    /// URI filenames on: a store opened to read in a folder it may not write is opened as
    /// `file:…?immutable=1` (`ReadOnlyOpening`).
    static let applied: Void = {
        _ = hmon_sqlite_memory_statistics_off()
        _ = hmon_sqlite_uri_filenames_on()
    }()
}
