/// A store file hmon cannot use: which file and what is wrong with it. It says *what* is wrong only;
/// each face says how to fix it in its own terms (the command line: another `--db`).
public struct UnusableStore: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The folder that would hold the file cannot be made; with the folder and the system's reason.
        case cannotCreateFolder(folder: String, detail: String)
        /// The file is not there and cannot be made.
        case cannotCreate(detail: String)
        case isAFolder
        case notSQLite
        /// An SQLite file with another program's schema.
        case anotherProgramsFile
        /// The system or SQLite refused to open it for lack of permission.
        case notPermitted(detail: String)
        /// It could not be opened for another reason.
        case cannotOpen(detail: String)
        case writtenByNewerHmon
        /// Missing or empty, where the command may not create a store.
        case noStore
        /// An hmon store whose schema is behind this hmon's, opened by a command that may not migrate it.
        case olderLayout
        case readOnly
        case damaged(detail: String)
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// "/data/notes.txt is not an hmon database (not an SQLite file)".
    public var description: String {
        switch reason {
        case .cannotCreateFolder(let folder, let detail): "cannot create the folder \(folder) for the database: \(detail)"
        case .cannotCreate(let detail): "cannot create \(path): \(detail)"
        case .isAFolder: "\(path) is a folder, not an hmon database"
        case .notSQLite: "\(path) is not an hmon database (not an SQLite file)"
        case .anotherProgramsFile: "\(path) is not an hmon database (it belongs to another program)"
        case .notPermitted(let detail): "cannot open \(path) (\(detail))"
        case .cannotOpen(let detail): "cannot open \(path) (\(detail))"
        case .writtenByNewerHmon: "\(path) was written by a newer hmon"
        case .noStore: "no hmon store at \(path)"
        case .olderLayout: "\(path) was written by an older hmon and must be brought up to date before it is read"
        case .readOnly: "\(path) is read-only"
        case .damaged(let detail): "\(path) is damaged (\(detail))"
        }
    }
}
