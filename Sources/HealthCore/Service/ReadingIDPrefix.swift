import Foundation
import HealthModel

/// A reading named by the start of its id, as git names a commit: at least `minimumLength` hex digits,
/// and it must name exactly one of the person's readings.
public enum ReadingIDPrefix {
    public static let minimumLength = 4
    /// The length of the ids hmon makes; an id this long is taken as it is.
    public static let fullLength = 32

    /// The whole id `text` names, looked up by `candidates` (the ids starting with a prefix, at most
    /// `limit`); `.unknownReading` for none, and an error listing a few for more than one.
    public static func resolve(_ text: String,
                               candidates: (_ prefix: String, _ limit: Int) async throws -> [String]) async throws -> String {
        let typed = text.trimmingCharacters(in: .whitespaces)
        if typed.count >= fullLength { return typed }
        let prefix = typed.lowercased()
        guard prefix.count >= minimumLength, prefix.allSatisfy(\.isHexDigit) else {
            throw HealthError.invalidValue("reading id \(typed.prefix(40)) is not an id: give at least \(minimumLength) of its "
                + "hex digits, as `hmon reading list` shows them")
        }
        let found = try await candidates(prefix, 6)
        switch found.count {
        case 0: throw HealthError.unknownReading(typed)
        case 1: return found[0]
        default:
            let shown = found.prefix(5).map { String($0.prefix(prefix.count + 4)) + "…" }.joined(separator: ", ")
            throw HealthError.invalidValue("reading id \(prefix) is the start of \(found.count > 5 ? "more than 5" : "\(found.count)") "
                + "readings (\(shown)): give more of it")
        }
    }
}
