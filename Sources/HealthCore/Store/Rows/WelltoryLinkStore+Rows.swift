import Foundation
import HealthModel

/// Welltory's callback links, once for both engines: a store that keeps their rows (`WelltoryLinkRows`),
/// devices and readings gets these.
extension WelltoryLinkStore where Self: WelltoryLinkRows & DeviceStore & ReadingStore {
    /// Makes the user's callback secret (256 random bits, returned in clear once, stored hashed), replacing
    /// any earlier one, which stops working. Results go to the user's first HRV meter, made if there is none.
    public func createWelltoryLink(userID: String, at now: Date) async throws -> String {
        let hrvType = BuiltInDeviceType.hrvMeter.deviceType.id
        let deviceID: String
        if let existing = try await firstDeviceID(ofType: hrvType, userID: userID) {
            deviceID = existing
        } else {
            deviceID = try await addDevice(name: StoreRules.welltoryDeviceName, typeID: hrvType, userID: userID, now: now).id
        }
        let secret = Secrets.newToken()
        try await replaceWelltoryLink(hash: Secrets.sha256Hex(secret), userID: userID, deviceID: deviceID, now: now)
        return secret
    }

    /// Stores Welltory's results (already parsed by `WelltoryResult`) for the link whose secret this is.
    /// A result with a share token is stored under an id made from the user and the token, so Welltory
    /// (or a person) opening the same callback twice stores it once.
    public func storeWelltoryResult(secret: String, data: [String: FieldValue], at now: Date) async throws -> WelltoryCallbackOutcome {
        guard let link = try await welltoryLink(hash: Secrets.sha256Hex(secret)) else { return .unknownLink }
        let mid = data[Field.shareToken]?.textValue.map { "wt" + String(Secrets.sha256Hex(link.userID + "\n" + $0).prefix(30)) }
        let message = NewMessage(sdid: link.deviceID, ts: now.millisecondsSince1970, data: data)
        let added = try await postBatch([message], mids: mid.map { [$0] }, userID: link.userID, now: now)
        return added == 1 || mid == nil ? .saved(deviceName: link.deviceName) : .alreadySaved(deviceName: link.deviceName)
    }
}
