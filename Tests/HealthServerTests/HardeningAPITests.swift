import Foundation
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel

/// Issue 16 over the REST API: the core's rules for names and numbers hold for JSON too (the server's
/// limits and status codes are tested with the server's own hardening).
@Suite struct HardeningAPITests {
    @Test func aDeviceNameThatCouldDriveATerminalIsRefusedAndNothingIsStored() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            for name in [#"Evil\u001b[2J\u001b]0;pwned\u0007Scale"#, #"Scale\u202eelacS"#, #"Zero\u200bwidth"#, #"C1\u009b31m"#] {
                let reply = try await world.post("/v1.1/devices", token: token,
                                                 json: #"{"name":"\#(name)","uid":"\#(world.alice.id)","dtid":"\#(ServerWorld.withings)"}"#)
                #expect(reply.status == 400, "\(name): \(reply.text)")
                #expect(reply.errorCode == 4001, "\(name): \(reply.text)")
                #expect(reply.text.contains("could change what a terminal shows"), "\(reply.text)")
                #expect(!reply.text.contains(#""field":"the""#), "a sentence's first word is no field: \(reply.text)")
            }
            #expect(try await world.store.devices(userID: world.alice.id).map(\.name) == ["Bathroom scale"])
        }
    }

    /// JSON itself has no nan, inf or hexadecimal; a number too large for a double, or written with
    /// endless digits, is refused as a bad request, never stored or answered with a 500.
    @Test func numbersBeyondADoubleAreRefusedAsABadRequest() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            // 1,000 digits stay under the body limit (100,000 are refused earlier, as too large, 413).
            let bodies = ["1e309", "-1e309", String(repeating: "9", count: 1_000), "NaN", "Infinity", "0x40"]
            for number in bodies {
                let reply = try await world.post("/v1.1/messages", token: token,
                                                 json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":\#(number)}}"#)
                #expect(reply.status == 400, "\(number.prefix(20)): \(reply.text.prefix(300))")
                #expect(reply.text.count < 2_000, "the answer repeats the whole number")
            }
            let stored = try await world.store.lastMessages(deviceID: world.aliceScale.id, userID: world.alice.id, count: 10)
            #expect(stored.isEmpty)
        }
    }

    /// Issue 26: a `ts` in seconds was stored as January 1970, and Exist's views then paged through 20,000
    /// empty days. A time before 2000 is refused saying milliseconds are expected (and, when it is
    /// plausible seconds, to multiply by 1000); so is one more than a day ahead.
    @Test(arguments: StoreEngine.available) func aTimeInSecondsIsRefusedSayingMillisecondsAreExpected(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token()
            let seconds = Int64(world.clock.now.timeIntervalSince1970)
            let inSeconds = try await world.post("/v1.1/messages", token: token,
                                                 json: #"{"sdid":"\#(world.aliceScale.id)","ts":\#(seconds),"data":{"weight":72.4}}"#)
            #expect(inSeconds.status == 400, "\(inSeconds.text)")
            #expect(inSeconds.text.contains(#""field":"ts""#) || inSeconds.text.contains(#""field" : "ts""#), "\(inSeconds.text)")
            #expect(inSeconds.text.contains("ts is in milliseconds since 1970"), "\(inSeconds.text)")
            #expect(inSeconds.text.contains("looks like seconds: multiply by 1000"), "\(inSeconds.text)")
            let ahead = try await world.post("/v1.1/messages", token: token,
                                             json: #"{"sdid":"\#(world.aliceScale.id)","ts":\#((seconds + 2 * 86_400) * 1000),"data":{"weight":72.4}}"#)
            #expect(ahead.status == 400, "\(ahead.text)")
            #expect(ahead.text.contains("ts is in milliseconds since 1970"), "\(ahead.text)")
            let inMicroseconds = try await world.post("/v1.1/messages", token: token,
                                                      json: #"{"sdid":"\#(world.aliceScale.id)","ts":\#(seconds * 1_000_000),"data":{"weight":72.4}}"#)
            #expect(inMicroseconds.status == 400 && inMicroseconds.text.contains("looks like microseconds: divide by 1000"),
                    "\(inMicroseconds.text)")
            let rightNow = try await world.post("/v1.1/messages", token: token,
                                                json: #"{"sdid":"\#(world.aliceScale.id)","ts":\#(seconds * 1000),"data":{"weight":72.4}}"#)
            #expect(rightNow.status == 200, "\(rightNow.text)")
            let stored = try await world.store.lastMessages(deviceID: world.aliceScale.id, userID: world.alice.id, count: 10)
            #expect(stored.map(\.ts) == [seconds * 1000])
        }
    }

    /// Issue 29, case 10: `{"weight":true}` was refused as "must be a string", and 1e308's refusal quoted 309
    /// digits. A field's value is a number or a string, and a number too large for any range is written short.
    @Test func aFieldThatIsNeitherANumberNorAStringSaysWhatItTakes() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            for value in ["true", "null", "{}", "[1]"] {
                let reply = try await world.post("/v1.1/messages", token: token,
                                                 json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":\#(value)}}"#)
                #expect(reply.status == 400, "\(value): \(reply.text)")
                #expect(reply.text.contains(#""field":"data.weight""#) && reply.text.contains(#"["must be a number or a string"]"#),
                        "\(value): \(reply.text)")
            }
            let huge = try await world.post("/v1.1/messages", token: token,
                                            json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":1e308}}"#)
            #expect(huge.status == 400)
            #expect(huge.text.contains("weight 1e+308 kg is outside 1–650 kg"), "\(huge.text)")
        }
    }
}
