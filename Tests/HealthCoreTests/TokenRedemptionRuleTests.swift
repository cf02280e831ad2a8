import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// The one rule both engines follow when a single-use token is presented (`TokenRecord.redemption`), and
/// what it leaves in each store.
@Suite struct TokenRedemptionRuleTests {
    let now = Date(millisecondsSince1970: 1_764_000_000_000)

    func refresh(family: String?, expiring seconds: TimeInterval = 60) -> TokenRecord {
        TokenRecord(kind: .refresh, userID: "u1", expiresAt: now.addingTimeInterval(seconds), createdAt: now, family: family)
    }

    @Test func aLiveUnspentTokenOfTheKindAskedForIsSpent() {
        #expect(refresh(family: "f1").redemption(presentedAs: .refresh, spent: false, at: now) == .spend)
    }

    @Test func anotherKindOrAnExpiredTokenIsRefusedEvenWhenSpent() {
        #expect(refresh(family: "f1").redemption(presentedAs: .code, spent: false, at: now) == .refuse)
        #expect(refresh(family: "f1").redemption(presentedAs: .code, spent: true, at: now) == .refuse)
        #expect(refresh(family: "f1", expiring: 0).redemption(presentedAs: .refresh, spent: true, at: now) == .refuse)
    }

    @Test func aSpentTokenPresentedAgainRevokesItsFamilyOrItselfWhenItHasNone() {
        #expect(refresh(family: "f1").redemption(presentedAs: .refresh, spent: true, at: now) == .revokeFamily("f1"))
        #expect(refresh(family: nil).redemption(presentedAs: .refresh, spent: true, at: now) == .dropReplayed)
    }

    /// A spent token is kept (to see a replay), but neither looks up nor is taken by `consumeToken`.
    @Test(arguments: StoreEngine.available) func aSpentTokenIsKeptButNeitherLooksUpNorIsConsumed(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, _) = try await world.user()
        let (token, record) = try await world.store.createToken(kind: .refresh, userID: user.id, ttl: 3600, family: "f1")
        #expect(try await world.store.redeemToken(token, kind: .refresh) == .redeemed(record))
        #expect(try await world.store.token(token) == nil)
        #expect(try await world.store.consumeToken(token, kind: .refresh) == nil)
        #expect(try await world.rowCount("tokens") == 1)
        #expect(try await world.store.redeemToken(token, kind: .refresh) == .replayed(revoked: 0))
        #expect(try await world.rowCount("tokens") == 0)
    }
}
