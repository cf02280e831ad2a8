#ifndef HMON_SQLITE_SETTINGS_H
#define HMON_SQLITE_SETTINGS_H

#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift does not import; this calls it with fixed arguments.
///
/// Turns off SQLite's memory statistics for the whole process. With them on (Debian's default), every
/// allocation and free inside SQLite takes one process-wide mutex to keep the counts; hmon never reads
/// them. Must run before SQLite initialises (the first connection opened): afterwards SQLite answers
/// SQLITE_MISUSE and changes nothing, which is harmless.
static inline int hmon_sqlite_memory_statistics_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// Lets `sqlite3_open_v2` read a filename that starts with `file:` as a URI, for the whole process, so a
/// store opened to read may pass `?immutable=1` (see ReadOnlyOpening.swift). Debian builds SQLite with
/// SQLITE_USE_URI already; other builds may not. Like the call above, it must come before SQLite
/// initialises.
static inline int hmon_sqlite_uri_filenames_on(void) {
    return sqlite3_config(SQLITE_CONFIG_URI, 1);
}

#endif
