import Foundation
import HealthConnectors
import Testing

/// The `X-Signature` check of a pushed body, whole or read in pieces as a spooled body is.
@Suite struct PushSignatureTests {
    static let body = Data(#"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": []}]}}"#.utf8)
    static let secret = "a signing secret the app and hmon share"

    @Test func aBodyCheckedInPiecesIsValidExactlyWhenTheWholeIs() {
        let header = PushSignature.value(body: Self.body, secret: Self.secret)
        #expect(PushSignature.isValid(header, body: Self.body, secret: Self.secret))
        var pieces = PushSignature.Check(secret: Self.secret)
        for start in stride(from: 0, to: Self.body.count, by: 7) {
            pieces.update(Self.body[start..<min(start + 7, Self.body.count)])
        }
        #expect(pieces.isValid(header))

        var short = PushSignature.Check(secret: Self.secret)
        short.update(Self.body.dropLast())
        #expect(!short.isValid(header), "a body cut short is not the body signed")
        #expect(!pieces.isValid(PushSignature.value(body: Self.body, secret: "another secret")))
        #expect(!pieces.isValid(nil))
        #expect(!pieces.isValid(String(header.dropFirst("sha256=".count))), "the header names its algorithm")
    }
}
