import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

/// The JSON shapes of the SAMI REST contract (`sami-api.md`), shared by `hmon serve` and `RemoteHealthService`
/// so that the server and the client cannot drift apart.
///
/// Timestamps travel as integers: milliseconds since the epoch everywhere, except a user's `createdOn` and
/// `modifiedOn`, which the original platform served in **seconds**. The types here do the conversion, so
/// no caller ever sees a raw number of the wrong unit.
public enum SAMI {
    /// `{"data": …}`, the wrapper around every successful `/v1.1` answer.
    public struct DataEnvelope<Payload: Codable & Sendable>: Codable, Sendable {
        public var data: Payload
        public init(data: Payload) { self.data = data }
    }

    // MARK: Users

    /// `GET /v1.1/users/self` → `{"data": UserJSON}`.
    public struct UserJSON: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var email: String
        public var fullName: String
        /// The platform's account identity; hmon serves a stable short identity derived from the id.
        public var saIdentity: String?
        /// Seconds since the epoch (the contract's one exception to milliseconds).
        public var createdOn: Int64
        /// Seconds since the epoch.
        public var modifiedOn: Int64

        public init(_ user: User) {
            id = user.id
            name = user.name
            email = user.email
            fullName = user.fullName
            saIdentity = String(user.id.prefix(10))
            createdOn = Int64(rounding: user.createdOn.timeIntervalSince1970, .down)
            modifiedOn = Int64(rounding: user.modifiedOn.timeIntervalSince1970, .down)
        }

        public var user: User {
            User(id: id, name: name, fullName: fullName, email: email,
                 createdOn: Date(timeIntervalSince1970: Double(createdOn)),
                 modifiedOn: Date(timeIntervalSince1970: Double(modifiedOn)))
        }
    }

    // MARK: Devices

    /// One device as `users/{uid}/devices` and `POST devices` describe it.
    public struct DeviceJSON: Codable, Sendable, Equatable {
        public var id: String
        public var uid: String
        public var dtid: String
        public var name: String
        public var manifestVersion: Int
        public var manifestVersionPolicy: String
        public var needProviderAuth: Bool
        /// Milliseconds since the epoch.
        public var createdOn: Int64
        public var connected: Bool
        public var properties: [String: String]?

        public init(_ device: Device) {
            id = device.id
            uid = device.uid
            dtid = device.dtid
            name = device.name
            manifestVersion = device.manifestVersion
            manifestVersionPolicy = "LATEST"
            needProviderAuth = false
            createdOn = device.createdOn.millisecondsSince1970
            connected = device.connected
            properties = [:]
        }

        public var device: Device {
            Device(id: id, uid: uid, dtid: dtid, name: name, manifestVersion: manifestVersion,
                   createdOn: Date(millisecondsSince1970: createdOn), connected: connected)
        }
    }

    /// `GET /v1.1/users/{uid}/devices` → `{"data":{"devices":[…]},"total":…,"offset":…,"count":…}`.
    public struct DevicesPage: Codable, Sendable {
        public struct Devices: Codable, Sendable { public var devices: [DeviceJSON] }
        public var data: Devices
        public var total: Int
        public var offset: Int
        public var count: Int

        public init(devices: [DeviceJSON], total: Int, offset: Int) {
            data = Devices(devices: devices)
            self.total = total
            self.offset = offset
            count = devices.count
        }
    }

    /// `POST /v1.1/devices` body.
    public struct NewDeviceJSON: Codable, Sendable {
        public var name: String
        public var uid: String
        public var dtid: String
        public init(name: String, uid: String, dtid: String) {
            self.name = name
            self.uid = uid
            self.dtid = dtid
        }
    }

    // MARK: Device types and manifests

    /// One device type as `GET /v1.1/devicetypes` lists it. `description` is written even when null.
    public struct DeviceTypeJSON: Codable, Sendable, Equatable {
        public var id: String
        public var uid: String?
        public var name: String
        public var published: Bool
        public var approved: Bool
        public var latestVersion: Int
        public var uniqueName: String
        public var description: String?

        public init(_ type: DeviceType) {
            id = type.id
            uid = "hmon"
            name = type.name
            published = true
            approved = true
            latestVersion = type.latestVersion
            uniqueName = type.uniqueName
            description = type.description
        }

        public var deviceType: DeviceType {
            DeviceType(id: id, name: name, uniqueName: uniqueName, description: description, latestVersion: latestVersion)
        }

        enum CodingKeys: String, CodingKey { case id, uid, name, published, approved, latestVersion, uniqueName, description }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(uid, forKey: .uid)
            try c.encode(name, forKey: .name)
            try c.encode(published, forKey: .published)
            try c.encode(approved, forKey: .approved)
            try c.encode(latestVersion, forKey: .latestVersion)
            try c.encode(uniqueName, forKey: .uniqueName)
            try c.encode(description, forKey: .description)
        }
    }

    /// `GET /v1.1/devicetypes?name=…` → `{"data":{"deviceTypes":[…]},"total":…,"offset":…,"count":…}`.
    public struct DeviceTypesPage: Codable, Sendable {
        public struct DeviceTypes: Codable, Sendable { public var deviceTypes: [DeviceTypeJSON] }
        public var data: DeviceTypes
        public var total: Int
        public var offset: Int
        public var count: Int

        public init(deviceTypes: [DeviceTypeJSON], total: Int, offset: Int) {
            data = DeviceTypes(deviceTypes: deviceTypes)
            self.total = total
            self.offset = offset
            count = deviceTypes.count
        }
    }

    /// One manifest field: `{"type":"Double","unit":"kg","isCollection":false,"description":"weight"}`.
    public struct FieldJSON: Codable, Sendable, Equatable {
        public var type: FieldType
        public var unit: String?
        public var isCollection: Bool
        public var description: String
    }

    /// `GET /v1.1/devicetypes/{dtid}/manifests/latest/properties`
    /// → `{"data":{"properties":{"fields":{…}},"actions":{}}}`.
    ///
    /// JSON objects have no order, but manifests do (the dashboard lists fields as the manifest gives them),
    /// and Foundation's coders shuffle keys. So the server writes the body with `orderedJSON()` (fields in
    /// manifest order) and the client reads it with `decode(ordered:)` (fields in document order).
    public struct ManifestProperties: Codable, Sendable, Equatable {
        public var manifest: Manifest

        public init(_ manifest: Manifest) { self.manifest = manifest }

        /// The body with the fields in manifest order.
        public func orderedJSON() throws -> Data {
            let encoder = JSONEncoder()
            var out = Data(#"{"data":{"properties":{"fields":{"#.utf8)
            for (index, field) in manifest.fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(try encoder.encode(field.name))
                out.append(UInt8(ascii: ":"))
                out.append(try encoder.encode(FieldJSON(type: field.type, unit: field.unit, isCollection: false,
                                                        description: field.description)))
            }
            out.append(contentsOf: Data(#"}},"actions":{}}}"#.utf8))
            return out
        }

        /// Decodes a body and puts the fields back in the order the document lists them.
        public static func decode(ordered data: Data) throws -> ManifestProperties {
            var decoded = try JSONDecoder().decode(ManifestProperties.self, from: data)
            let encoder = JSONEncoder()
            func position(_ name: String) -> Int {
                guard let key = try? encoder.encode(name), let range = data.range(of: key + Data(":".utf8)) else { return .max }
                return range.lowerBound
            }
            let positions = Dictionary(decoded.manifest.fields.map { ($0.name, position($0.name)) }, uniquingKeysWith: min)
            decoded.manifest.fields.sort { (positions[$0.name] ?? .max, $0.name) < (positions[$1.name] ?? .max, $1.name) }
            return decoded
        }

        private enum Outer: String, CodingKey { case data }
        private enum DataKeys: String, CodingKey { case properties, actions }
        private enum PropertiesKeys: String, CodingKey { case fields }

        public func encode(to encoder: Encoder) throws {
            var outer = encoder.container(keyedBy: Outer.self)
            var data = outer.nestedContainer(keyedBy: DataKeys.self, forKey: .data)
            var properties = data.nestedContainer(keyedBy: PropertiesKeys.self, forKey: .properties)
            var fields = properties.nestedContainer(keyedBy: AnyKey.self, forKey: .fields)
            for field in manifest.fields {
                try fields.encode(FieldJSON(type: field.type, unit: field.unit, isCollection: false,
                                            description: field.description),
                                  forKey: AnyKey(field.name))
            }
            _ = data.nestedContainer(keyedBy: AnyKey.self, forKey: .actions)
        }

        public init(from decoder: Decoder) throws {
            let outer = try decoder.container(keyedBy: Outer.self)
            let data = try outer.nestedContainer(keyedBy: DataKeys.self, forKey: .data)
            let properties = try data.nestedContainer(keyedBy: PropertiesKeys.self, forKey: .properties)
            let fields = try properties.nestedContainer(keyedBy: AnyKey.self, forKey: .fields)
            manifest = Manifest(fields: try fields.allKeys.map { key in
                let spec = try fields.decode(FieldJSON.self, forKey: key)
                return FieldSpec(name: key.stringValue, type: spec.type, unit: spec.unit, description: spec.description)
            })
        }
    }

    // MARK: Messages

    /// `GET /v1.1/messages/last` → newest first.
    public struct LastMessages: Codable, Sendable {
        /// The devices asked for, as the comma list that was sent.
        public var sdids: String
        public var count: Int
        public var size: Int
        public var data: [Message]

        public init(sdids: String, count: Int, messages: [Message]) {
            self.sdids = sdids
            self.count = count
            size = messages.count
            data = messages
        }
    }

    /// `GET /v1.1/messages` (range). Pass `next` back as `offset` for the following page; absent on the last.
    public struct MessagesRange: Codable, Sendable {
        public var uid: String
        /// Absent when the range covers every device of the user (asked for by `uid`).
        public var sdid: String?
        public var startDate: Int64
        public var endDate: Int64
        public var count: Int
        public var order: HealthModel.SortOrder
        public var size: Int
        public var next: String?
        public var data: [Message]

        public init(uid: String, query: MessageQuery, page: MessagePage) {
            self.uid = uid
            sdid = query.sdid
            startDate = query.startDate
            endDate = query.endDate
            count = query.count
            order = query.order
            size = page.messages.count
            next = page.next
            data = page.messages
        }

        public var page: MessagePage { MessagePage(messages: data, next: next?.isEmpty == false ? next : nil) }
    }

    /// `POST /v1.1/messages` body: `ts` optional (now), `type` optional ("message").
    public struct PostMessage: Codable, Sendable {
        public var sdid: String
        public var ts: Int64?
        public var type: String?
        public var data: [String: FieldValue]

        public init(_ message: NewMessage) {
            sdid = message.sdid
            ts = message.ts
            type = "message"
            data = message.data
        }
    }

    /// `POST /v1.1/messages` answer's payload: `{"data":{"mid":"…"}}`.
    public struct MessageID: Codable, Sendable {
        public var mid: String
        public init(mid: String) { self.mid = mid }
    }

    /// `PUT /revokeAccessToken` answer's payload: `{"data":{"message":"Token successfully revoked"}}`.
    public struct Notice: Codable, Sendable {
        public var message: String
        public init(message: String) { self.message = message }
    }

    // MARK: OAuth2

    /// `POST /token` answer. `refresh_token` is absent for `client_credentials`.
    public struct TokenResponse: Codable, Sendable, Equatable {
        public var accessToken: String
        public var tokenType: String
        /// Seconds.
        public var expiresIn: Int
        public var refreshToken: String?
        public var scope: String

        public init(accessToken: String, expiresIn: Int, refreshToken: String?, scope: String) {
            self.accessToken = accessToken
            tokenType = "bearer"
            self.expiresIn = expiresIn
            self.refreshToken = refreshToken
            self.scope = scope
        }

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
            case refreshToken = "refresh_token", scope
        }
    }

    /// The errors `POST /token` answers with (HTTP 400): `{"error":"invalid_grant"}`.
    public struct OAuthError: Codable, Sendable, Equatable, Error {
        public enum Code: String, Codable, Sendable {
            case invalidRequest = "invalid_request", invalidGrant = "invalid_grant"
            case unauthorizedClient = "unauthorized_client", unsupportedGrantType = "unsupported_grant_type"
            case serverError = "server_error"
        }
        public var error: Code
        /// What is wrong, for a person (RFC 6749 §5.2): "client_id holds a NUL character (U+0000): remove it".
        public var errorDescription: String?

        public init(_ error: Code, description: String? = nil) {
            self.error = error
            errorDescription = description
        }

        private enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }

    // MARK: Errors

    /// The error envelope: `{"error":{"code":4001,"message":"Validation Error","errors":[[{"field":…,"messages":[…]}]]}}`.
    public struct ErrorEnvelope: Codable, Sendable, Equatable {
        public var error: Body
        public init(code: Int, message: String, errors: [[FieldProblem]]? = nil) {
            error = Body(code: code, message: message, errors: errors)
        }

        public struct Body: Codable, Sendable, Equatable {
            public var code: Int
            public var message: String
            public var errors: [[FieldProblem]]?
        }

        /// One field's problems in a validation error.
        public struct FieldProblem: Codable, Sendable, Equatable {
            public var field: String
            public var messages: [String]
            public init(field: String, messages: [String]) {
                self.field = field
                self.messages = messages
            }
        }

        /// One readable line: "Validation Error: data.weight: must be a number".
        public var summary: String {
            let details = (error.errors ?? []).flatMap { $0 }.map { "\($0.field): \($0.messages.joined(separator: ", "))" }
            return details.isEmpty ? error.message : "\(error.message): \(details.joined(separator: "; "))"
        }
    }

    /// The error codes of the contract's table.
    public enum ErrorCode {
        public static let validation = 4001
        public static let unauthorized = 401
        public static let forbidden = 403
        public static let notFound = 404
        public static let deviceTypeNotFound = 1101
        public static let userNotFound = 1201
        public static let emailTaken = 1202
        public static let userNameTaken = 1203
        public static let payloadTooLarge = 413
        public static let rateLimited = 429
    }

    /// A JSON object key known only at run time (manifest field names).
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
