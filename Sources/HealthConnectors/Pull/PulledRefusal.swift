/// A pulled source's refusal of a call, in the source's own words. Never holds a token.
public protocol PulledRefusal: Error, CustomStringConvertible {
    /// An access token the source no longer takes (expired or revoked): refreshed once, then the call is made again.
    var isInvalidToken: Bool { get }
    /// The source no longer takes the link's tokens at all, refresh token included: only a new link helps.
    var tokensNoLongerAccepted: Bool { get }
    /// What a call without tokens throws.
    static var notAuthorized: Self { get }
}
