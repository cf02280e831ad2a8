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
        #expect(sessions.load() == session)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: paths.configDirectory.path)
        #expect(leftovers == ["session.json"])
    }

    @Test func savingAgainReplacesTheSessionAndRepairsALooseMode() throws {
        let folder = try TemporaryFolder()
        let sessions = SessionStore(file: folder.file("config/session.json"))
        try sessions.save(Session(userID: "u1", userName: "alice", location: "/a", token: "one"))
        chmod(sessions.file.path, 0o644)
        #expect(sessions.load()?.token == "one")
        #expect(try mode(sessions.file) == 0o600)
        chmod(sessions.file.path, 0o644)
        try sessions.save(Session(userID: "u1", userName: "alice", location: "/a", token: "two"))
        #expect(try mode(sessions.file) == 0o600)
        #expect(sessions.load()?.token == "two")
    }

    @Test func deletingForgetsTheSessionAndAnUnreadableFileMeansSignedOut() throws {
        let folder = try TemporaryFolder()
        let sessions = SessionStore(file: folder.file("session.json"))
        try sessions.save(Session(userID: "u1", userName: "alice", location: "/a", token: "one"))
        try sessions.delete()
        #expect(sessions.load() == nil)
        try sessions.delete()
        try "{not json".write(to: sessions.file, atomically: true, encoding: .utf8)
        #expect(sessions.load() == nil)
    }
}
