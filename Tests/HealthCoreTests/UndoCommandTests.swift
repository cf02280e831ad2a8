import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// `hmon add weight` catching a typo, `--force`, and `hmon undo`, run as the built binary against a store
/// in a temporary folder (one account, so the command line acts for it without a sign-in).
@Suite struct UndoCommandTests {
    typealias Home = CommandLineTests.Home

    /// Three mornings at 72.2 kg: a trend to judge by (two weigh-in days make one).
    func trend(_ home: Home) async throws {
        for day in 20...22 {
            try #require(await home.hmon(["add", "weight", "72.2", "--at", "2026-11-\(day) 08:00"]).status == 0)
        }
    }

    @Test func aTypoIsRefusedForceSavesItAndUndoRemovesIt() async throws {
        let home = try Home()
        try await home.userWithScale()
        try await trend(home)

        let refused = try await home.hmon(["add", "weight", "27.2", "--at", "2026-11-23 08:10"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "hmon: 27.2 kg is 45.0 kg under your trend (72.2 kg): a typo? Nothing was saved: check the number, or pass --force to save it anyway\n")
        #expect(try await home.hmon(["reading", "list"]).stdout.split(separator: "\n").count == 4, "nothing saved")

        let forced = try await home.hmon(["add", "weight", "27.2", "--at", "2026-11-23 08:10", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.hasPrefix("added 27.2 kg to Bathroom scale at 2026-11-23 08:10"))

        let undone = try await home.hmon(["undo"])
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stdout == "removed the weigh-in of 27.2 kg at 2026-11-23 08:10\n")
        let listed = try await home.hmon(["reading", "list"]).stdout
        #expect(!listed.contains("27.2"), "\(listed)")
    }

    @Test func undoWalksBackThroughEditsAndDeletesThenSaysNothingIsLeft() async throws {
        let home = try Home()
        try await home.userWithScale()
        try await trend(home)
        let id = try ReadingCommandTests.id(in: try await home.hmon(["reading", "list"]).stdout, of: "2026-11-22 08:00")

        // An edit far from the trend of the days before it needs --force too.
        let refused = try await home.hmon(["reading", "edit", id, "--value", "7.22"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("hmon: 7.2 kg is 65.0 kg under your trend (72.2 kg): a typo? Nothing was changed"))
        try #require(await home.hmon(["reading", "edit", id, "--value", "72.9"]).status == 0)
        try #require(await home.hmon(["reading", "delete", id]).status == 0)

        #expect(try await home.hmon(["undo"]).stdout == "put back the deleted weigh-in of 72.9 kg at 2026-11-22 08:00\n")
        #expect(try await home.hmon(["undo"]).stdout == "put back 72.2 kg in the weigh-in at 2026-11-22 08:00\n")
        for day in [22, 21, 20] {
            #expect(try await home.hmon(["undo"]).stdout == "removed the weigh-in of 72.2 kg at 2026-11-\(day) 08:00\n")
        }
        let nothing = try await home.hmon(["undo"])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.hasPrefix("hmon: nothing to undo in this session"))
        #expect(nothing.stdout.isEmpty)
    }

    @Test func theTypoIsSaidInPoundsForSomeoneWhoWeighsInPounds() async throws {
        let home = try Home()
        try await home.userWithScale()
        try #require(await home.hmon(["profile", "set", "--unit", "lb"]).status == 0)
        try #require(await home.hmon(["add", "weight", "159.2", "--at", "2026-11-21 08:00"]).status == 0)
        try #require(await home.hmon(["add", "weight", "159.2", "--at", "2026-11-22 08:00"]).status == 0)
        let refused = try await home.hmon(["add", "weight", "59.2", "--at", "2026-11-23 08:10"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("hmon: 59.2 lb is 100.0 lb under your trend (159.2 lb): a typo?"), "\(refused.stderr)")
    }
}
