import Foundation
import HealthModel

extension TokenRecord {
    /// Whether the token stands for `kind` (any kind, for nil) and has not expired by `now`.
    public func counts(as kind: TokenKind?, at now: Date) -> Bool {
        guard kind == nil || self.kind == kind else { return false }
        if let expiresAt, expiresAt <= now { return false }
        return true
    }

    /// What presenting this single-use token (a code, a rotating refresh token) does, decided from its row
    /// inside the engine's transaction (`redeemToken`), so both engines spend, refuse and revoke alike. A
    /// spent token presented again is a replay (a thief, or its owner after the thief): every token of its
    /// family goes (RFC 6749 §4.1.2, OAuth 2.0 Security BCP §4.14).
    public func redemption(presentedAs kind: TokenKind, spent: Bool, at now: Date) -> RedemptionStep {
        guard counts(as: kind, at: now) else { return .refuse }
        guard spent else { return .spend }
        return family.map(RedemptionStep.revokeFamily) ?? .dropReplayed
    }
}

/// What an engine does with a presented single-use token's row (`TokenRecord.redemption`).
public enum RedemptionStep: Sendable, Equatable {
    /// Unknown kind or expired: nothing changes; the answer is `.invalid`.
    case refuse
    /// First use: mark it spent; the answer is `.redeemed`.
    case spend
    /// A replay of a token of no family: delete it; the answer is `.replayed(revoked: 0)`.
    case dropReplayed
    /// A replay: delete every token of this family; the answer counts those that were still live.
    case revokeFamily(String)
}
