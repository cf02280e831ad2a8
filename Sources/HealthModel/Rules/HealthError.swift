import Foundation

/// Everything that can go wrong in the service core, each with a message a person can act on.
public enum HealthError: Error, Equatable, Sendable, LocalizedError, CustomStringConvertible {
    case notSignedIn
    case wrongPassword
    case sessionExpired
    case nameTaken(String)
    case unknownUser(String)
    case unknownDevice(String)
    case notYourDevice(String)
    case unknownDeviceType(String)
    /// No reading with this id (`hmon reading list` shows the ids).
    case unknownReading(String)
    /// A reading of another user's device: it can be neither changed nor deleted.
    case notYourReading(String)
    case invalidValue(String)
    case storeUnavailable(String)
    /// The database server cannot be reached (stopped, restarting, the network between down): nothing was
    /// done, and the same request can be tried again once it is back (the server answers 503 with `Retry-After`).
    case storeUnreachable(String)
    /// Another connection held the store's write lock for longer than this one would wait (a long
    /// import, another hmon writing): nothing was written, and the same request can be tried again (the server answers 503 with `Retry-After`).
    case storeBusy(String)
    /// A store file that cannot be used at all; the faces add how to fix it.
    case unusableStore(UnusableStore)
    case serverUnreachable(String)
    case serverError(String)
    case unsupported(String)

    public var message: String {
        switch self {
        case .notSignedIn: "not signed in: sign in first (run `hmon` and sign in, or pass --user NAME)"
        case .wrongPassword: "wrong user name or password"
        case .sessionExpired: "your session has expired: sign in again"
        case .nameTaken(let name): "the user name \"\(name)\" is taken: choose another"
        case .unknownUser(let name): "no user named \"\(name)\": create one with `hmon user add \(name)`"
        case .unknownDevice(let id): "no device \"\(id)\": see `hmon device list`"
        case .notYourDevice(let id): "device \(id) belongs to another user"
        case .unknownDeviceType(let name): "no device type \"\(name)\": see `hmon device types`"
        case .unknownReading(let id): "no reading \"\(id)\": see `hmon reading list` for the ids"
        case .notYourReading(let id): "reading \(id) belongs to another user"
        case .invalidValue(let what): what
        case .storeUnavailable(let what): what
        case .storeUnreachable(let what): what
        case .storeBusy(let what): what
        case .unusableStore(let store): store.description
        case .serverUnreachable(let what): what
        case .serverError(let what): what
        case .unsupported(let what): what
        }
    }

    public var description: String { message }
    public var errorDescription: String? { message }
}
