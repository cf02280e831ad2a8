import Foundation
import Testing
@testable import HealthCore
@testable import SAMIContract
@testable import HealthModel

/// The server's `messages/last` answer, written as bytes by hand: the same document the contract's
/// Codable `SAMI.LastMessages` decodes, with strings escaped as RFC 8259 asks.
@Suite struct LastMessagesJSONTests {
    static let reading = StoredMessageJSON(mid: "m1", sdid: "d1", sdtid: "dt1", uid: "u1", ts: 1_795_400_858_058,
                                           cts: 1_795_400_858_100, mv: 2, dataJSON: #"{"weight":72.4,"fatRatio":22}"#)

    @Test func theAnswerDecodesAsTheContractsLastMessages() throws {
        let other = StoredMessageJSON(mid: "m0", sdid: "d1", sdtid: "dt1", uid: "u1", ts: 5, cts: 6, mv: 1, dataJSON: "{}")
        let bytes = SAMI.LastMessages.jsonBytes(sdids: "d1", count: 20, messages: [Self.reading, other])
        let decoded = try JSONDecoder().decode(SAMI.LastMessages.self, from: Data(bytes))

        #expect(decoded.sdids == "d1")
        #expect(decoded.count == 20)
        #expect(decoded.size == 2)
        #expect(decoded.data.map(\.mid) == ["m1", "m0"])
        let first = try #require(decoded.data.first)
        #expect(first.ts == 1_795_400_858_058 && first.cts == 1_795_400_858_100 && first.mv == 2)
        #expect(first.sdid == "d1" && first.sdtid == "dt1" && first.uid == "u1")
        #expect(first.data == ["weight": .number(72.4), "fatRatio": .number(22)])
        #expect(Data(bytes) == SAMI.LastMessages.json(sdids: "d1", count: 20, messages: [Self.reading, other]))
    }

    @Test func stringsAreEscapedAsRFC8259Asks() throws {
        // Worked by hand from RFC 8259 section 7: quote and backslash escaped, newline, return and tab by
        // their short forms, other control characters as \u00XX in lower-case hex, anything else as it is.
        let sdids = "a\"b\\c\nd\re\tf\u{01}g\u{1F}h é 体重"
        let bytes = SAMI.LastMessages.jsonBytes(sdids: sdids, count: 1, messages: [])
        let text = String(decoding: bytes, as: UTF8.self)

        #expect(text == #"{"sdids":"a\"b\\c\nd\re\tf\u0001g\u001fh é 体重","count":1,"size":0,"data":[]}"#)
        let decoded = try JSONDecoder().decode(SAMI.LastMessages.self, from: Data(bytes))
        #expect(decoded.sdids == sdids)
    }
}
