import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import PostgresStorage

/// `--db postgres://…`: what the URL says, where the password comes from, and that it is never shown.
@Suite struct PostgresLocationTests {
    @Test func aURLGivesHostPortUserDatabaseAndTLS() throws {
        let location = try PostgresLocation("postgres://clinic:s3cr%40t@db.example.org:6543/health?sslmode=require", environment: [:])
        #expect(location.host == "db.example.org")
        #expect(location.port == 6543)
        #expect(location.user == "clinic")
        #expect(location.password == "s3cr@t")
        #expect(location.database == "health")
        #expect(location.tls == .require)
        #expect(location.description == "postgres://clinic@db.example.org:6543/health")
        #expect(!location.description.contains("s3cr"))
    }

    @Test func aSocketFolderIsGivenAsTheHostParameterOrAnEncodedPath() throws {
        let query = try PostgresLocation("postgresql://hmon@localhost/hmon?host=/run/postgresql", environment: [:])
        #expect(query.socketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(query.tls == .disable)
        let encoded = try PostgresLocation("postgres://hmon@%2Ftmp%2Fpg:5433/hmon", environment: [:])
        #expect(encoded.socketPath == "/tmp/pg/.s.PGSQL.5433")
        #expect(encoded.description == "postgres://hmon@:5433/hmon?host=/tmp/pg")
    }

    @Test func thePasswordComesFromPGPASSWORDThenThePasswordFile() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("pgpass")
        // libpq's format: host:port:database:user:password, `*` for any, `\:` for a colon.
        try "# comment\nother:5432:*:*:no\ndb.example.org:5432:health:*:from\\:file\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let url = "postgres://clinic@db.example.org/health"
        #expect(try PostgresLocation(url, environment: ["PGPASSWORD": "from-env", "PGPASSFILE": file.path]).password == "from-env")
        #expect(try PostgresLocation(url, environment: ["PGPASSFILE": file.path]).password == "from:file")
        // A password file others may read is ignored, as libpq ignores it.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        #expect(try PostgresLocation(url, environment: ["PGPASSFILE": file.path]).password == nil)
    }

    @Test func aBadURLIsRefusedWithoutEchoingItsPassword() {
        let noDatabase = #expect(throws: HealthError.self) { try PostgresLocation("postgres://u:hunter2@host", environment: [:]) }
        #expect(noDatabase?.message.contains("hunter2") == false)
        #expect(noDatabase?.message.contains("names no database") == true)
        let badMode = #expect(throws: HealthError.self) {
            try PostgresLocation("postgres://u:hunter2@host/db?sslmode=sometimes", environment: [:])
        }
        #expect(badMode?.message.contains("sslmode") == true)
        #expect(PostgresLocation.redacted("postgres://u:hunter2@host/db") == "postgres://u:***@host/db")
        #expect(PostgresLocation.isURL("postgresql://x/y") && !PostgresLocation.isURL("/home/me/hmon.sqlite"))
    }
}
