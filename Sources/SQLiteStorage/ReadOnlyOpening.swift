import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// How a store opened to read (`StoreAccess.readOnly`) reaches its file, so that reading leaves no trace:
/// no `-wal` or `-shm` file behind and no byte of the store changed.
///
/// A WAL database's readers need the shared-memory index (`-shm`) and open the `-wal`; SQLite makes both
/// when they are missing. A connection opened with `SQLITE_OPEN_READONLY` cannot delete them again when it
/// closes (only a connection that may write checkpoints and cleans up as the last one out), so every
/// read-only command left them behind, and in a folder it may not write it could not open at all.
enum ReadOnlyOpening: Equatable {
    /// The file and its folder may be written: a connection opened to write, through which `LocalStore`
    /// writes nothing (`LocalStore.write` refuses with `.readOnly`, as SQLite refuses a read-only
    /// connection; `PRAGMA query_only` cannot hold this, since GRDB turns it off after each read). As the
    /// last connection out it removes the `-wal` and `-shm` it made, as every hmon writer does.
    case queryOnly
    /// The store cannot be written by us, but a `-wal` lies beside it: a writer may be at work, or one
    /// stopped before it checkpointed. Its commits live in that file, so it must be read as SQLite reads a
    /// live WAL (it needs the `-shm` to exist already, or the folder to be writable).
    case sharedReadOnly
    /// The store cannot be written by us and no `-wal` lies beside it: nobody can be changing it (the
    /// same permissions hold any hmon writer back), so SQLite may read it as an immutable file, without
    /// locks, `-shm` or `-wal` (https://sqlite.org/uri.html#uriimmutable). This is what opens a 0444 store
    /// in a 0555 folder.
    case immutable

    /// The way to open the store at `path`, from what this process may do to it and its folder.
    static func choose(path: String) -> ReadOnlyOpening {
        let folder = (path as NSString).deletingLastPathComponent
        if access(path, W_OK) == 0, access(folder.isEmpty ? "." : folder, W_OK) == 0 { return .queryOnly }
        return FileManager.default.fileExists(atPath: path + "-wal") ? .sharedReadOnly : .immutable
    }

    /// What to hand `sqlite3_open_v2`: the path, or for `.immutable` a `file:` URI (SQLite reads URIs
    /// because `SQLiteProcessSettings` turns them on; a plain absolute path is never taken for one).
    func filename(for path: String) -> String {
        guard self == .immutable else { return path }
        return "file:" + Self.uriPath(path) + "?immutable=1"
    }

    /// Whether the connection is opened with `SQLITE_OPEN_READONLY`.
    var opensReadOnly: Bool { self != .queryOnly }

    /// Applies this way of opening to a connection's configuration (before the connection opens).
    func configure(_ configuration: inout Configuration) {
        configuration.readonly = opensReadOnly
    }

    /// The path with every byte a URI's path may not hold as it is percent-encoded (RFC 3986; SQLite
    /// decodes `%HH` in a `file:` URI's path), so `?`, `#` and `%` in a folder's name stay part of it.
    static func uriPath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }
}
