import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

@Suite struct SessionStoreTests {
    private func mode(_ url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    @Test func aSavedSessionIsReadableOnlyByItsOwnerAndLoadsBack() throws {
        let folder = try TemporaryFolder()
        let paths = HMonPaths(environment: ["HOME": folder.url.path])
        let sessions = SessionStore(paths: paths)
        let session = Session(userID: "u1", userName: "alice", location: "/data/hmon.sqlite", token: "t0ken",
                              expiresAt: Date(timeIntervalSince1970: 1_900_000_000))
        try sessions.save(session)
        #expect(try mode(paths.sessionFile) == 0o600)
        #expect(try mode(paths.configDirectory) == 0o700)
        #expect(sessions.load(at: "/data/hmon.sqlite") == session)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: paths.configDirectory.path)
        #expect(leftovers == ["session.json"])
    }

    @Test func savingAgainReplacesTheSessionAndRepairsALooseMode() throws {
        let folder = try TemporaryFolder()
        let sessions = SessionStore(file: folder.file("config/session.json"))
        try sessions.save(Session(userID: "u1", userName: "alice", location: "/a", token: "one"))
        chmod(sessions.file.path, 0o644)
        #expect(sessions.load(at: "/a")?.token == "one")
        #expect(try mode(sessions.file) == 0o600)
        chmod(sessions.file.path, 0o644)
        try sessions.save(Session(userID: "u1", userName: "alice", location: "/a", token: "two"))
        #expect(try mode(sessions.file) == 0o600)
        #expect(sessions.load(at: "/a")?.token == "two")
    }

    @Test func deletingForgetsTheSessionAndAnUnreadableFileMeansSignedOut() throws {
        let folder = try TemporaryFolder()
        let sessions = SessionStore(file: folder.file("session.json"))
        try sessions.save(Session(userID: "u1", userName: "alice", location: "/a", token: "one"))
        try sessions.delete(at: "/a")
        #expect(sessions.load(at: "/a") == nil)
        try sessions.delete(at: "/a")
        try "{not json".write(to: sessions.file, atomically: true, encoding: .utf8)
        #expect(sessions.load(at: "/a") == nil)
    }

    /// Signing in to a local store keeps the sign-in saved for a server, and signing out of one leaves the other.
    @Test func eachPlaceKeepsItsOwnSignIn() throws {
        let folder = try TemporaryFolder()
        let sessions = SessionStore(file: folder.file("session.json"))
        let server = Session(userID: "u1", userName: "alice", location: "https://health.example", token: "remote")
        let local = Session(userID: "u2", userName: "alice", location: "/home/alice/hmon.sqlite", token: "local")
        try sessions.save(server)
        try sessions.save(local)
        #expect(sessions.load(at: server.location) == server, "the server's sign-in is still saved")
        #expect(sessions.load(at: local.location) == local)
        try sessions.delete(at: local.location)
        #expect(sessions.load(at: server.location) == server, "signing out of the store leaves the server's")
        #expect(sessions.load(at: local.location) == nil)
        #expect(try mode(sessions.file) == 0o600)
    }

    /// A `session.json` of an earlier hmon (one session, not a list) is read as that one session.
    @Test func anEarlierFileWithOneSessionIsRead() throws {
        let folder = try TemporaryFolder()
        let sessions = SessionStore(file: folder.file("session.json"))
        try #"{"location":"/a","token":"one","userID":"u1","userName":"alice"}"#.write(to: sessions.file, atomically: true, encoding: .utf8)
        #expect(sessions.load(at: "/a")?.token == "one")
        try sessions.save(Session(userID: "u1", userName: "alice", location: "/b", token: "two"))
        #expect(sessions.load(at: "/a")?.token == "one", "kept when another place is saved")
    }
}
