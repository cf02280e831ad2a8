import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing

/// Issue 26, item 1: SAMI's `GET`/`PUT`/`DELETE /v1.1/devices/{did}` answered 404. A device is read,
/// renamed and deleted by its owner; a device with readings is deleted only with `withReadings=true`.
@Suite struct DeviceRoutesTests {
    @Test(arguments: StoreEngine.available) func aDeviceIsReadRenamedAndDeletedByItsOwnerOnly(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token(for: "alice")
            let bobToken = try await world.token(for: "bob")
            let path = "/v1.1/devices/\(world.aliceScale.id)"

            let read = try await world.get(path, token: token)
            #expect(read.status == 200, "\(read.text)")
            #expect(((try read.json["data"] as? [String: Any])?["name"] as? String) == "Bathroom scale")
            #expect(try await world.get(path, token: bobToken).status == 403)
            #expect(try await world.get("/v1.1/devices/nonexistent", token: token).status == 404)

            let renamed = try await world.send("PUT", path, token: token, json: #"{"name":"Hall scale"}"#)
            #expect(renamed.status == 200, "\(renamed.text)")
            #expect(((try renamed.json["data"] as? [String: Any])?["name"] as? String) == "Hall scale")
            #expect(try await world.send("PUT", path, token: bobToken, json: #"{"name":"Mine"}"#).status == 403)
            let moved = try await world.send("PUT", path, token: token, json: #"{"name":"X","uid":"\#(world.bob.id)"}"#)
            #expect(moved.status == 400, "\(moved.text)")

            let posted = try await world.post("/v1.1/messages", token: token, json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":72.4}}"#)
            #expect(posted.status == 200, "\(posted.text)")
            let kept = try await world.send("DELETE", path, token: token)
            #expect(kept.status == 409, "\(kept.text)")
            #expect(kept.text.contains("has 1 readings"), "\(kept.text)")
            #expect(try await world.send("DELETE", path + "?withReadings=maybe", token: token).status == 400)
            #expect(try await world.send("DELETE", path + "?withReadings=true", token: bobToken).status == 403)
            let deleted = try await world.send("DELETE", path + "?withReadings=true", token: token)
            #expect(deleted.status == 200, "\(deleted.text)")
            #expect(try await world.get(path, token: token).status == 404)
            #expect(try await world.store.devices(userID: world.alice.id).isEmpty)
        }
    }

    @Test func aDeviceTypeAndItsManifestVersionsAreServed() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token(for: "alice")
            let dtid = world.aliceScale.dtid
            let type = try await world.get("/v1.1/devicetypes/\(dtid)", token: token)
            #expect(type.status == 200, "\(type.text)")
            #expect(((try type.json["data"] as? [String: Any])?["id"] as? String) == dtid)
            #expect(try await world.get("/v1.1/devicetypes/dt-none", token: token).status == 404)
            let versions = try await world.get("/v1.1/devicetypes/\(dtid)/availablemanifestversions", token: token)
            #expect(((try versions.json["data"] as? [String: Any])?["versions"] as? [String]) == ["1"], "\(versions.text)")
            let latest = try await world.get("/v1.1/devicetypes/\(dtid)/manifests/latest/properties", token: token)
            let first = try await world.get("/v1.1/devicetypes/\(dtid)/manifests/1/properties", token: token)
            #expect(latest.status == 200 && first.status == 200, "\(first.text)")
            #expect(NSDictionary(dictionary: try latest.json) == NSDictionary(dictionary: try first.json), "the same manifest")
            #expect(try await world.get("/v1.1/devicetypes/\(dtid)/manifests/7/properties", token: token).status == 404)
            #expect(try await world.get("/v1.1/devicetypes/\(dtid)").status == 401)
        }
    }
}
