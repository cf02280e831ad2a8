import Foundation
import HealthCore
import SAMIContract
import HealthModel
import Hummingbird

/// The `/v1.1` API of the contract, over the local store. Each request gets a `LocalHealthService` acting
/// for the token's user, so the server applies exactly the checks the dashboard and the command line do
/// (ownership of devices, manifest fields, sane ranges).
///
/// hmon extension: `GET`/`PUT /v1.1/users/self/profile` carry the profile (birth date, sex, height, units,
/// BMR formula) that the energy summary needs, as `{"data": Profile}`; `GET`/`PUT`/`DELETE
/// /v1.1/messages/{mid}` read, correct and delete one of the token's user's readings (403 for another
/// user's, 404 for none; a client's token may only post); `POST /v1.1/hmon/undo` undoes the token's last
/// change of a reading.
struct APIRoutes: Sendable {
    /// What the routes read directly: a device or type for the contract's shapes, the hot `messages/last`
    /// path, a client's owner. Everything a user does goes through `services`.
    let store: any DeviceStore & ReadingStore & TokenStore
    let services: UserServices
    let configuration: ServerConfiguration
    /// The store's change token, shared with the token check: what `lastMessagesCache` keys its answers on.
    let storeVersion: StoreVersionProbe
    let lastMessagesCache: LastMessagesCache
    /// The views' answers kept while the store is unchanged (`ViewRoutes.kept`).
    let viewAnswers = ViewAnswers()

    /// The most readings `messages/last` returns (the contract's cap).
    static let maxLastCount = 100
    /// The most devices or device types one page lists.
    static let maxPageCount = 100

    func add(to router: Router<ServerContext>) {
        let api = router.group("v1.1")
        api.get("users/self") { _, context in try await userSelf(context) }
        api.get("users/self/profile") { _, context in try await profile(context) }
        api.put("users/self/profile") { request, context in try await updateProfile(request, context) }
        api.get("users/:uid/devices") { request, context in try await devices(request, context) }
        api.post("devices") { request, context in try await addDevice(request, context) }
        api.get("devices/:did") { _, context in try await device(context) }
        api.put("devices/:did") { request, context in try await renameDevice(request, context) }
        api.delete("devices/:did") { request, context in try await deleteDevice(request, context) }
        api.get("devicetypes") { request, context in try await deviceTypes(request, context) }
        api.get("devicetypes/:dtid") { _, context in try await deviceType(context) }
        api.get("devicetypes/:dtid/availablemanifestversions") { _, context in try await manifestVersions(context) }
        api.get("devicetypes/:dtid/manifests/latest/properties") { _, context in try await manifest(context) }
        api.get("devicetypes/:dtid/manifests/:version/properties") { _, context in try await manifest(context) }
        api.get("messages/last") { request, context in try await lastMessages(request, context) }
        api.get("messages/analytics/aggregates") { request, context in try await aggregates(request, context) }
        api.get("messages") { request, context in try await messages(request, context) }
        api.post("messages") { request, context in try await postMessage(request, context) }
        api.get("messages/:mid") { _, context in try await reading(context) }
        api.put("messages/:mid") { request, context in try await editReading(request, context) }
        api.delete("messages/:mid") { _, context in try await deleteReading(context) }
        api.post("hmon/undo") { _, context in try await undo(context) }
        if configuration.servesViews {
            ViewRoutes(api: self).add(to: api)
            ScreenRoutes(api: self).add(to: api)
        }
    }

    // MARK: Who may do what

    /// The signed-in user behind the token, with read access; 401 without a valid token, 403 for a
    /// client's token or a token without the scope.
    func reader(_ context: ServerContext) throws -> (userID: String, service: LocalHealthService) {
        try user(context, scope: Scope.read)
    }

    /// The user whose views the token may read: a reader's token, or a personal token (`hmon token add
    /// --read-only`), which reads every group of its user and never expires, so a dashboard such as Home
    /// Assistant can poll a view with a token it keeps (a sign-in's tokens live an hour). Views only read;
    /// the `sources` view (the account's links) keeps to `reader`.
    func viewReader(_ context: ServerContext) throws -> (userID: String, service: LocalHealthService) {
        if let principal = context.principal, principal.isPersonal, let userID = principal.userID {
            return (userID, services.service(for: userID, undoSession: principal.undoSession))
        }
        return try reader(context)
    }

    private func writer(_ context: ServerContext) throws -> (userID: String, service: LocalHealthService) {
        try user(context, scope: Scope.write)
    }

    private func user(_ context: ServerContext, scope: String) throws -> (userID: String, service: LocalHealthService) {
        guard let principal = context.principal else { throw APIError.unauthorized }
        guard let userID = principal.userID, principal.scopes.contains(scope) else { throw APIError.forbidden }
        return (userID, services.service(for: userID, undoSession: principal.undoSession))
    }

    // MARK: Users

    private func userSelf(_ context: ServerContext) async throws -> Response {
        let (_, service) = try reader(context)
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.UserJSON(try await service.currentUser())))
    }

    private func profile(_ context: ServerContext) async throws -> Response {
        let (_, service) = try reader(context)
        return JSONBody.response(SAMI.DataEnvelope(data: try await service.profile()))
    }

    private func updateProfile(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try writer(context)
        let profile = try await RequestInput.json(Profile.self, from: request)
        try await service.updateProfile(profile)
        ChangeFeedMiddleware.wrote(kinds: [.profile])
        return JSONBody.response(SAMI.DataEnvelope(data: try await service.profile()))
    }

    // MARK: Devices

    private func devices(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (userID, service) = try reader(context)
        // Another user's id (existing or not) is 403: the answer says nothing about other accounts.
        // `self` stands for the caller, as in `users/self`.
        let uid = context.parameters.get("uid")
        guard uid == userID || uid == "self" else { throw APIError.forbidden }
        let query = try RequestInput.query(request)
        let offset = try RequestInput.int(query, "offset", in: 0...Int(Int32.max), default: 0)
        let count = try RequestInput.int(query, "count", in: 1...Self.maxPageCount, default: Self.maxPageCount)
        // hmon's devices have no server properties: with includeProperties=true there is nothing to add.
        _ = try RequestInput.flag(query, "includeProperties", default: false)
        // SAMI's filters, each honoured or refused (a filter ignored gives a client unfiltered data
        // it cannot tell from filtered). hmon has no shared devices: a person's own are all there are.
        if try RequestInput.flag(query, "includeShareInfo", default: false) {
            throw APIError.validation("includeShareInfo", "hmon shares no devices: leave it out or pass false")
        }
        var all = try await service.devices()
        switch query["owner"]?.uppercased() {
        case nil, "", "ME", "ALL": break
        case "SHARED_WITH_ME": all = []
        case let other?: throw APIError.validation("owner", "must be ME, SHARED_WITH_ME or ALL, got \"\(other.prefix(40))\"")
        }
        if let dtid = query["dtid"], !dtid.isEmpty { all = all.filter { $0.dtid == dtid } }
        let page = all.dropFirst(offset).prefix(count).map(SAMI.DeviceJSON.init)
        return JSONBody.response(SAMI.DevicesPage(devices: Array(page), total: all.count, offset: offset))
    }

    private func addDevice(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (userID, service) = try writer(context)
        let body = try await RequestInput.json(SAMI.NewDeviceJSON.self, from: request)
        guard body.uid == userID else { throw APIError.forbidden }
        let device = try await service.addDevice(name: body.name, typeID: body.dtid)
        ChangeFeedMiddleware.wrote(kinds: [.devices])
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.DeviceJSON(device)))
    }

    private func deviceID(_ context: ServerContext) -> String { context.parameters.get("did") ?? "" }

    /// `GET /v1.1/devices/{did}`: the caller's own device; another's is 403, none 404.
    private func device(_ context: ServerContext) async throws -> Response {
        let (userID, _) = try reader(context)
        let device = try await store.device(id: deviceID(context), ownedBy: userID)
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.DeviceJSON(device)))
    }

    /// `PUT /v1.1/devices/{did}` with `{"name": …}`: renames it. The other fields of SAMI's device body may
    /// come along unchanged (a client that sends the whole object back); a change to any of them is refused.
    private func renameDevice(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (userID, service) = try writer(context)
        let current = try await store.device(id: deviceID(context), ownedBy: userID)
        let body = try await RequestInput.json(DeviceUpdate.self, from: request)
        if let uid = body.uid, uid != current.uid { throw APIError.validation("uid", "cannot change: a device stays with its owner") }
        if let dtid = body.dtid, dtid != current.dtid { throw APIError.validation("dtid", "cannot change: add a device of the other type") }
        guard let name = body.name else { throw APIError.validation("name", "is required") }
        let renamed = try await service.renameDevice(id: current.id, to: name)
        ChangeFeedMiddleware.wrote(kinds: [.devices])
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.DeviceJSON(renamed)))
    }

    /// `DELETE /v1.1/devices/{did}`: refused with 409 while the device has readings, saying how many; hmon's
    /// `withReadings=true` deletes them with it (as `hmon device delete` does after asking).
    private func deleteDevice(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (userID, service) = try writer(context)
        let query = try RequestInput.query(request)
        let withReadings: Bool
        switch query["withReadings"] {
        case nil, "false": withReadings = false
        case "true": withReadings = true
        case let other?: throw APIError.validation("withReadings", "must be true or false, got \"\(other.prefix(20))\"")
        }
        let device = try await store.device(id: deviceID(context), ownedBy: userID)
        let outcome = try await service.deleteDevice(id: device.id, withReadings: withReadings)
        guard outcome.deleted else {
            throw APIError(.conflict, code: 409, message: "The device has \(outcome.readings) readings: delete them first, "
                           + "or pass withReadings=true to delete them with it")
        }
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.DeviceJSON(device)))
    }

    /// The fields of SAMI's device body that `PUT /v1.1/devices/{did}` reads.
    private struct DeviceUpdate: Decodable {
        var name: String?
        var uid: String?
        var dtid: String?
    }

    // MARK: Device types

    private func deviceTypes(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try reader(context)
        let query = try RequestInput.query(request)
        let offset = try RequestInput.int(query, "offset", in: 0...Int(Int32.max), default: 0)
        let count = try RequestInput.int(query, "count", in: 1...Self.maxPageCount, default: Self.maxPageCount)
        if query["tags"].map({ !$0.isEmpty }) == true {
            throw APIError.validation("tags", "is not served: hmon's device types carry no tags; ask by name or list them all")
        }
        let matching: [DeviceType]
        if let name = query["name"], !name.isEmpty {
            matching = try await service.deviceType(named: name).map { [$0] } ?? []
        } else {
            matching = try await service.deviceTypes()
        }
        let page = matching.dropFirst(offset).prefix(count).map(SAMI.DeviceTypeJSON.init)
        return JSONBody.response(SAMI.DeviceTypesPage(deviceTypes: Array(page), total: matching.count, offset: offset))
    }

    /// `GET /v1.1/devicetypes/{dtid}`: one type, `{"data": type}`; 404 for none.
    private func deviceType(_ context: ServerContext) async throws -> Response {
        _ = try reader(context)
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.DeviceTypeJSON(try await knownType(context))))
    }

    /// `GET /v1.1/devicetypes/{dtid}/availablemanifestversions`: `{"data": {"versions": ["1"]}}`, versions as
    /// strings as SAMI writes them. hmon's types each have one manifest, their latest.
    private func manifestVersions(_ context: ServerContext) async throws -> Response {
        _ = try reader(context)
        let type = try await knownType(context)
        return JSONBody.response(SAMI.DataEnvelope(data: ["versions": (1...max(1, type.latestVersion)).map(String.init)]))
    }

    /// The type the path names; 404 in SAMI's words when there is none.
    private func knownType(_ context: ServerContext) async throws -> DeviceType {
        guard let type = try await store.deviceType(id: context.parameters.get("dtid") ?? "") else { throw APIError.deviceTypeNotFound }
        return type
    }

    /// `…/manifests/latest/properties` and `…/manifests/{version}/properties`: a version is the type's own
    /// (hmon keeps each type's latest manifest only), else 404.
    private func manifest(_ context: ServerContext) async throws -> Response {
        let (_, service) = try reader(context)
        let typeID = context.parameters.get("dtid") ?? ""
        if let version = context.parameters.get("version") {
            let type = try await knownType(context)
            guard Int(version) == type.latestVersion else {
                throw APIError(.notFound, code: 404, message: "Manifest version \(version.prefix(20)) does not exist for this device type: its version is \(type.latestVersion)")
            }
        }
        let body = try SAMI.ManifestProperties(try await service.manifest(ofType: typeID)).orderedJSON()
        return Response(status: .ok, headers: [.contentType: JSONBody.contentType], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    // MARK: Messages

    /// The dashboard's refresh, so the hottest call: readings go out as stored, without decoding their data.
    private func lastMessages(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (userID, _) = try reader(context)
        let query = try RequestInput.query(request)
        let sdids = try RequestInput.text(query, "sdids")
        let devices = sdids.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !devices.isEmpty, devices.count <= Self.maxPageCount else {
            throw APIError.validation("sdids", "must list 1 to \(Self.maxPageCount) device ids, separated by commas")
        }
        let count = try RequestInput.int(query, "count", in: 1...Self.maxLastCount, default: Self.maxLastCount)
        let field = query["fieldPresence"].flatMap { $0.isEmpty ? nil : $0 }
        // Read before the readings, so a commit landing in between makes the answer stale, never the reverse.
        let version = try await storeVersion.current()
        let key = LastMessagesCache.Key(userID: userID, sdids: sdids, count: count, field: field)
        if let body = lastMessagesCache.body(for: key, storeVersion: version) {
            return Response(status: .ok, headers: [.contentType: JSONBody.contentType], body: .init(byteBuffer: body))
        }
        var messages: [StoredMessageJSON] = []
        for device in devices {
            // Past the service on purpose, the measured hot path (docs/benchmarks.md): the store hands back each
            // row's stored JSON, so the answer is spliced, never decoded into a Message and encoded again.
            messages += try await store.lastMessagesJSON(deviceID: device, userID: userID, count: count, field: field)
        }
        if devices.count > 1 {
            messages.sort { ($0.ts, $0.mid) > ($1.ts, $1.mid) }
            messages = Array(messages.prefix(count))
        }
        let body = ByteBuffer(bytes: SAMI.LastMessages.jsonBytes(sdids: sdids, count: count, messages: messages))
        lastMessagesCache.remember(body, for: key, storeVersion: version)
        return Response(status: .ok, headers: [.contentType: JSONBody.contentType], body: .init(byteBuffer: body))
    }

    private func messages(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (userID, service) = try reader(context)
        let query = try RequestInput.query(request)
        // SAMI's parameters hmon does not serve are refused, naming each, rather than ignored.
        for (name, why) in Self.unservedMessageParameters where query[name].map({ !$0.isEmpty }) == true {
            throw APIError.validation(name, why)
        }
        if let mid = query["mid"], !mid.isEmpty {
            // One message by its id, in SAMI's list shape.
            let message = try await service.reading(id: mid)
            return JSONBody.response(SAMI.MessagesRange(uid: userID, query: MessageQuery(sdid: message.sdid, startDate: message.ts,
                                                                                         endDate: message.ts, order: .asc, count: 1),
                                                        page: MessagePage(messages: [message], next: nil)))
        }
        // One device's readings (sdid), or every device's of the user (uid, SAMI's other form).
        let sdid: String?
        if query["sdid"].map({ !$0.isEmpty }) == true {
            sdid = try RequestInput.text(query, "sdid")
        } else if let uid = query["uid"], !uid.isEmpty {
            guard uid == userID || uid == "self" else { throw APIError.forbidden }
            sdid = nil
        } else {
            throw APIError.validation("sdid", "is required (or uid, for every device of the user; or mid, for one message)")
        }
        let startDate = try RequestInput.integer(query, "startDate", in: 0...Int64.max)
        let endDate = try RequestInput.integer(query, "endDate", in: 0...Int64.max)
        guard startDate <= endDate else { throw APIError.validation("startDate", "must not be after endDate") }
        let count = try RequestInput.int(query, "count", in: 1...StoreRules.maximumPageSize, default: 100)
        let order: HealthModel.SortOrder
        switch query["order"] {
        case nil, "", "asc": order = .asc
        case "desc": order = .desc
        case let other?: throw APIError.validation("order", "must be asc or desc, got \"\(other.prefix(40))\"")
        }
        let messageQuery = MessageQuery(sdid: sdid, startDate: startDate, endDate: endDate, order: order, count: count,
                                        offset: query["offset"].flatMap { $0.isEmpty ? nil : $0 },
                                        fieldPresence: query["fieldPresence"].flatMap { $0.isEmpty ? nil : $0 })
        let page: MessagePage
        do {
            page = try await service.messages(messageQuery)
        } catch HealthError.invalidValue(let what) where what.lowercased().contains("cursor") || what.lowercased().contains("offset") {
            throw APIError.validation("offset", what)
        }
        return JSONBody.response(SAMI.MessagesRange(uid: userID, query: messageQuery, page: page))
    }

    /// `GET /v1.1/messages` parameters of SAMI's that hmon does not serve, and what to do instead.
    static let unservedMessageParameters: [(String, String)] = [
        ("filter", "is not served: hmon filters by fieldPresence (a field a message must have)"),
        ("sdids", "is not served: ask for one device's messages with sdid, or the newest of several with /v1.1/messages/last?sdids="),
        ("sdtids", "is not served: ask for one device's messages with sdid"),
    ]

    /// A user posts to their own devices; a client's token (`client_credentials` with `write`) posts to its
    /// owner's devices, and that is all such a token may do.
    private func postMessage(_ request: Request, _ context: ServerContext) async throws -> Response {
        guard let principal = context.principal else { throw APIError.unauthorized }
        guard principal.scopes.contains(Scope.write) else { throw APIError.forbidden }
        let body = try await RequestInput.json(SAMI.PostMessage.self, from: request)
        if let type = body.type, type != "message" {
            throw APIError.validation("type", "must be \"message\", got \"\(type.prefix(40))\"")
        }
        if body.sdid.isEmpty { throw APIError.validation("sdid", "is required") }
        try checkPostedTime(body.ts)
        let ownerID: String
        // A person's post goes to their sign-in's undo journal; a client's (a scale bridge) keeps none.
        var undoSession: String?
        if let userID = principal.userID {
            ownerID = userID
            undoSession = principal.undoSession
        } else {
            // A client registered for a user posts as that user: to anyone else's device it gets 403. The client's
            // registration is the server's own record, not the user's data, so it is read from the store.
            guard case .client(let clientID) = principal.kind, let owner = try await store.client(id: clientID)?.ownerID else {
                throw APIError.forbidden
            }
            ownerID = owner
        }
        let service = services.service(for: ownerID, undoSession: undoSession)
        let mid = try await service.post(NewMessage(sdid: body.sdid, ts: body.ts, data: body.data))
        ChangeFeedMiddleware.wrote(kinds: ChangeKind.of(fields: body.data.keys))
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.MessageID(mid: mid)))
    }

    /// A reading's `ts` as every write path takes it (a post, a correction): SAMI's window, 400 naming `ts`.
    private func checkPostedTime(_ ts: Int64?) throws {
        guard let ts else { return }
        do {
            try StoreRules.checkPostedTimestamp(ts, now: configuration.clock().millisecondsSince1970)
        } catch HealthError.invalidValue(let problem) {
            throw APIError.validation("ts", problem)
        }
    }

    // MARK: Corrections (hmon extension)

    private func readingID(_ context: ServerContext) -> String { context.parameters.get("mid") ?? "" }

    private func reading(_ context: ServerContext) async throws -> Response {
        let (_, service) = try reader(context)
        return JSONBody.response(SAMI.DataEnvelope(data: try await service.reading(id: readingID(context))))
    }

    /// `{"ts": ms, "data": {field: value}}`, either key optional: the reading as stored afterwards.
    private func editReading(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try writer(context)
        let change = try await RequestInput.json(ReadingChange.self, from: request)
        try checkPostedTime(change.ts)
        let edited = try await service.editReading(id: readingID(context), change)
        ChangeFeedMiddleware.wrote(kinds: ChangeKind.of(fields: edited.data.keys))
        return JSONBody.response(SAMI.DataEnvelope(data: edited))
    }

    private func deleteReading(_ context: ServerContext) async throws -> Response {
        let (_, service) = try writer(context)
        let mid = readingID(context)
        try await service.deleteReading(id: mid)
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.MessageID(mid: mid)))
    }

    /// hmon extension: `POST /v1.1/hmon/undo` undoes the newest add, edit or delete made with this sign-in
    /// (its token family, or the token itself) through these routes, and answers `{"data": UndoOutcome}`:
    /// `{"data": {}}` when nothing is left to undo.
    private func undo(_ context: ServerContext) async throws -> Response {
        let (_, service) = try writer(context)
        return JSONBody.response(SAMI.DataEnvelope(data: try await service.undoLastChange()))
    }
}
