import Foundation
import Testing
@testable import HealthCore
@testable import SAMIContract

/// The PKCE helper (RFC 7636, S256) that hmon serve checks codes with and the remote client signs in with.
@Suite struct PKCETests {
    /// RFC 7636, Appendix B ("Example for the S256 code_challenge_method"): this verifier's S256 challenge.
    static let rfcVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let rfcChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test func theChallengeOfTheRFCsExampleVerifierIsTheRFCsChallenge() {
        #expect(PKCE.challenge(for: Self.rfcVerifier) == Self.rfcChallenge)
        #expect(PKCE.verifies(Self.rfcVerifier, challenge: Self.rfcChallenge))
    }

    @Test func anotherVerifierDoesNotFitTheChallenge() {
        #expect(!PKCE.verifies(String(Self.rfcVerifier.dropLast()) + "Y", challenge: Self.rfcChallenge))
        #expect(!PKCE.verifies(Self.rfcChallenge, challenge: Self.rfcChallenge), "the challenge is not its own verifier (plain)")
    }

    /// §4.1: a verifier is 43 to 128 unreserved characters; one that is not is refused even when the
    /// challenge was computed from it.
    @Test func aMalformedVerifierFitsNoChallenge() {
        let short = String(Self.rfcVerifier.prefix(42))
        #expect(!PKCE.verifies(short, challenge: PKCE.challenge(for: short)))
        let spaced = String(Self.rfcVerifier.dropLast()) + " "
        #expect(!PKCE.verifies(spaced, challenge: PKCE.challenge(for: spaced)))
    }

    @Test func wellFormedIs43To128UnreservedCharacters() {
        #expect(PKCE.isWellFormed(String(repeating: "a", count: 43)))
        #expect(PKCE.isWellFormed(String(repeating: "Z9-._~", count: 21) + "xy"))   // 128
        #expect(!PKCE.isWellFormed(String(repeating: "a", count: 42)))
        #expect(!PKCE.isWellFormed(String(repeating: "a", count: 129)))
        for outsider in ["+", "/", "=", " ", "%", "é"] {
            #expect(!PKCE.isWellFormed(String(repeating: "a", count: 42) + outsider), "\(outsider)")
        }
    }

    @Test func aNewVerifierIsWellFormedAndNeverTheSame() {
        let one = PKCE.newVerifier(), two = PKCE.newVerifier()
        #expect(one.count == 43 && PKCE.isWellFormed(one))
        #expect(one != two)
    }
}
