import Foundation
import HealthCore
import HealthModel

/// Where a PostgreSQL store is: parsed from `postgres://user:pass@host:port/db?sslmode=…` (or
/// `postgresql://`), the form `--db` and `HMON_DB` take beside a file path.
///
/// The password may come from the URL, else `PGPASSWORD`, else a `.pgpass` file (`PGPASSFILE`, else
/// `~/.pgpass`), as with `psql`. It is kept apart from everything that is shown: `description` (and so
/// every message naming the store) is the URL without it.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    /// A host name or address; nil with `socketFolder`.
    public var host: String?
    /// The folder holding the server's Unix socket (`host=/run/postgresql`, or a host starting with `/`).
    public var socketFolder: String?
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// Whether `text` names a PostgreSQL database rather than a file.
    public static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Parses `text`; throws `.invalidValue` naming what is wrong (never echoing a password).
    /// `environment` supplies `PGPASSWORD`, `PGPASSFILE`, `PGUSER` and `HOME`.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw HealthError.invalidValue("\(Self.redacted(text)) is not a PostgreSQL URL: write postgres://USER@HOST:PORT/DATABASE")
        }
        let query = components.queryItems ?? []
        func parameter(_ name: String) -> String? { query.last { $0.name == name }?.value }
        var host = components.percentEncodedHost.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        if let fromQuery = parameter("host") { host = fromQuery }
        if let given = host, given.hasPrefix("/") {
            socketFolder = given
            self.host = nil
        } else {
            socketFolder = nil
            self.host = host ?? "localhost"
        }
        port = components.port ?? parameter("port").flatMap(Int.init) ?? 5432
        guard (1...65535).contains(port) else {
            throw HealthError.invalidValue("port \(port) in \(Self.redacted(text)) is outside 1–65535")
        }
        let path = components.percentEncodedPath.dropFirst().removingPercentEncoding ?? ""
        guard !path.isEmpty, !path.contains("/") else {
            throw HealthError.invalidValue("\(Self.redacted(text)) names no database: end it with /DATABASE, e.g. postgres://hmon@localhost/hmon")
        }
        database = path
        let user = components.percentEncodedUser?.removingPercentEncoding ?? parameter("user") ?? environment["PGUSER"]
            ?? environment["USER"]
        guard let user, !user.isEmpty else {
            throw HealthError.invalidValue("\(Self.redacted(text)) names no user: write postgres://USER@HOST/DATABASE")
        }
        self.user = user
        switch parameter("sslmode") ?? "prefer" {
        case "disable", "allow": tls = .disable
        case "prefer": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        case let other:
            throw HealthError.invalidValue("sslmode \"\(other)\" is not one of disable, prefer, require")
        }
        password = components.percentEncodedPassword?.removingPercentEncoding
            ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        if password == nil {
            password = Self.passwordFromFile(environment: environment, host: self.host ?? "localhost", port: port,
                                             database: database, user: user)
        }
        if socketFolder != nil && tls == .require {
            throw HealthError.invalidValue("sslmode=require over a Unix socket: a socket is not encrypted; leave sslmode out")
        }
        if socketFolder != nil { tls = .disable }
    }

    /// The socket file itself (`.s.PGSQL.PORT` in the folder), as libpq names it.
    public var socketPath: String? { socketFolder.map { "\($0)/.s.PGSQL.\(port)" } }

    /// The URL without the password: what messages, logs and `hmon serve` show.
    public var description: String {
        var text = "postgres://\(Self.encoded(user))@"
        if let host { text += host.contains(":") ? "[\(host)]" : host }
        text += ":\(port)/\(Self.encoded(database))"
        if let socketFolder { text += "?host=\(socketFolder)" }
        return text
    }

    /// `text` with any password between `://user:` and `@` replaced by `***`, for a URL that failed to parse.
    public static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return text }
        let credentials = rest[..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<scheme.upperBound]) + credentials[..<colon] + ":***" + rest[at...]
    }

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? text
    }

    /// The password of the first matching line of the password file, as libpq reads it
    /// (`hostname:port:database:username:password`, `*` matching anything, `\:` and `\\` escaped).
    /// A file others may read is ignored, as libpq does.
    static func passwordFromFile(environment: [String: String], host: String, port: Int, database: String, user: String) -> String? {
        guard let file = environment["PGPASSFILE"] ?? environment["HOME"].map({ $0 + "/.pgpass" }),
              let attributes = try? FileManager.default.attributesOfItem(atPath: file),
              let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 == 0,
              let contents = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in contents.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = splitFields(String(line))
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    private static func splitFields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
