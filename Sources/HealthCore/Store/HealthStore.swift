import Foundation
import HealthModel

/// The storage seam: everything the faces, the server, the importer and the insights ask of a store,
/// whichever engine keeps it — the embedded SQLite file (`LocalStore`) or a PostgreSQL database
/// (`PostgresStore`). User-agnostic like both: every operation names its user, because one store
/// serves many users behind the server. The rules (name checks, count limits, token lifetimes) live in
/// shared helpers, so both engines answer the same inputs with the same values and the same errors.
///
/// A store is the sum of role-sized protocols, one per thing it keeps; code that needs one role asks for
/// that role (`some ReadingStore`), and a new stored feature adds one requirement to one role and its two
/// implementations. Requirements carry every parameter; the call forms with the defaults callers rely on (`now:`,
/// `kind: nil`…) are in the extension below, so a call reads the same on either engine.
public protocol HealthStore: AnyObject, Sendable, StoreIdentity, AccountStore, DeviceStore, ReadingStore, DerivedDayStore,
                             TokenStore, WelltoryLinkStore, PushLinkStore, ExistStore, ImportStore, UndoJournalStore,
                             ReadingsAsideStore {}

/// Where a store is and when it changed.
public protocol StoreIdentity: AnyObject, Sendable {
    /// Where the store is, for messages and for matching a saved session to its store: a file path, or
    /// a PostgreSQL URL without its password.
    var location: String { get }
    /// Whether opening made a new store, so the command can say so.
    var wasCreated: Bool { get }
    /// A value that changes whenever a commit lands, from this process or another: cheap enough to poll.
    func changeToken() async throws -> Int64
}

/// Accounts, their passwords and profiles.
public protocol AccountStore: AnyObject, Sendable {
    func createUser(_ account: NewAccount, at now: Date) async throws -> User
    func checkNameIsFree(_ name: String) async throws
    func user(id: String) async throws -> User?
    func user(named name: String) async throws -> User?
    func users() async throws -> [User]
    func hasUsers() async throws -> Bool
    func authenticate(name: String, password: String, runningCheckOn runner: PasswordCheckRunner) async throws -> User
    func setPassword(_ password: String, userID: String, at now: Date) async throws
    func deleteUser(id: String) async throws
    func profile(userID: String) async throws -> Profile
    func updateProfile(_ profile: Profile, userID: String, at now: Date) async throws
}

/// Device types (with their manifests) and the users' devices.
public protocol DeviceStore: AnyObject, Sendable {
    func deviceTypes() async throws -> [DeviceType]
    func deviceType(id: String) async throws -> DeviceType?
    func deviceType(named name: String) async throws -> DeviceType?
    func manifest(ofType typeID: String) async throws -> Manifest
    func devices(userID: String) async throws -> [Device]
    func device(id: String) async throws -> Device?
    func device(id: String, ownedBy userID: String) async throws -> Device
    func addDevice(name: String, typeID: String, userID: String, at now: Date) async throws -> Device
    /// Renames the user's device; the name follows `StoreRules.deviceName` and is unique among theirs.
    func renameDevice(id: String, userID: String, to name: String) async throws -> Device
    /// Deletes the user's device with its readings; with `onlyIfEmpty`, only when it has none (else it is
    /// kept and the count says why).
    func deleteDevice(id: String, userID: String, onlyIfEmpty: Bool) async throws -> DeviceDeletion
    /// Moves every reading of the user's device `from` onto their device `into`, in one transaction, and
    /// returns how many moved; `from` stays, empty. Refused (nothing moved) for another user's device, for
    /// one device named twice, and when `into`'s type does not record a field those readings carry
    /// (`DeviceMergeRules`).
    func mergeDevice(id from: String, into: String, userID: String) async throws -> Int
}

/// Readings: written, read back, paged, corrected.
public protocol ReadingStore: AnyObject, Sendable {
    func post(_ message: NewMessage, userID: String, mid: String?, at now: Date) async throws -> String
    /// Adds a reading as `post` does and, with `undoSession`, keeps the add in that session's undo journal
    /// in the same transaction: a person's post through the server is one write, not a write, a read and
    /// another write. Returns the reading as stored.
    func post(_ message: NewMessage, userID: String, mid: String?, at now: Date, undoSession: String?) async throws -> Message
    func postBatch(_ messages: [NewMessage], mids: [String]?, userID: String, at now: Date) async throws -> Int
    func messageCount(userID: String) async throws -> Int
    func lastMessages(deviceID: String, userID: String, count: Int, field: String?) async throws -> [Message]
    func lastMessagesJSON(deviceID: String, userID: String, count: Int, field: String?) async throws -> [StoredMessageJSON]
    func messages(_ query: MessageQuery, userID: String) async throws -> MessagePage
    /// One of the user's readings; `.unknownReading` or `.notYourReading` otherwise.
    func reading(id mid: String, userID: String) async throws -> Message
    /// The ids of the user's readings that start with `prefix` (lowercase hex), in order, at most `limit`.
    func readingIDs(startingWith prefix: String, userID: String, limit: Int) async throws -> [String]
    /// The user's readings over all their devices, as `query` asks.
    func readings(_ query: ReadingsQuery, userID: String) async throws -> [Message]
    /// The readings `readings(_:userID:)` gives, in its order and from one snapshot, handed to `add` one at a
    /// time as they are read instead of gathered: a view of 100,000 readings is then encoded as it is read,
    /// never held as 100,000 `Message`s (tens of megabytes each time it is asked for).
    func foldReadings<Result: Sendable>(_ query: ReadingsQuery, userID: String, into initial: Result,
                                        _ add: @escaping @Sendable (inout Result, Message) throws -> Void) async throws -> Result
    /// How many readings each of the user's devices holds from `since` (ms) on, by device id (none for a
    /// device without any): counted in the store, not read.
    func readingCounts(userID: String, since: Int64) async throws -> [String: Int]
    /// Changes a reading after the checks of a new one; returns it as stored.
    @discardableResult
    func editReading(id mid: String, userID: String, change: ReadingChange, at now: Date) async throws -> Message
    /// Deletes a reading; returns it as it was.
    @discardableResult
    func deleteReading(id mid: String, userID: String) async throws -> Message
    /// Applies an arrival's writes (`ArrivalWrite`) in order, in one transaction: all of them or none. A put
    /// checked against its device like a post, replacing whole what its id held; a delete of an id that holds
    /// nothing is `.absent`. Each reading put keeps `path`, the way it came (nil: not said). Returns what each
    /// write did, in order. The writes are asked for one at a time inside the transaction, so a backfill of
    /// hundreds of thousands is one transaction without being held at once.
    func applyArrival(_ writes: some ArrivalWriteList, userID: String, path: ReadingPath?, at now: Date) async throws -> [ArrivalWriteResult]
}

/// What the screens and the insights derive from the readings: sums per period and per day, weights.
public protocol DerivedDayStore: AnyObject, Sendable {
    func energyTotals(userID: String, from: Int64, to: Int64) async throws -> EnergyTotals
    func latestWeight(userID: String, before: Int64) async throws -> WeightReading?
    func dailyWeightTotals(userID: String, dayStarts: [Int64], end: Int64) async throws -> [Int: DailyWeightTotal]
    func weightReadings(userID: String, from: Int64, to: Int64) async throws -> [WeightReading]
    func devicesOverview(userID: String) async throws -> DevicesOverview?
    func energyInputs(userID: String, periods: [(from: Int64, to: Int64)]) async throws
        -> (profile: Profile, periods: [(totals: EnergyTotals, weight: WeightReading?)])
    func dayTotals(userID: String, dayStarts: [Int64], end: Int64) async throws -> [Int: DayTotals]
    func forgetDayTotals() async throws
    func countReadings(userID: String, from: Int64) async throws -> Int
    func firstReadingTime(userID: String) async throws -> Int64?
}

/// Sign-in tokens, OAuth clients and personal tokens: each secret stored only as its hash.
public protocol TokenStore: AnyObject, Sendable {
    func createToken(kind: TokenKind, userID: String?, clientID: String?, scope: String?, redirectURI: String?,
                     ttl: TimeInterval?, family: String?, codeChallenge: String?, at now: Date) async throws -> (token: String, record: TokenRecord)
    func token(_ token: String, kind: TokenKind?, at now: Date) async throws -> TokenRecord?
    func consumeToken(_ token: String, kind: TokenKind, at now: Date) async throws -> TokenRecord?
    func redeemToken(_ token: String, kind: TokenKind, at now: Date) async throws -> Redemption
    @discardableResult
    func revokeToken(_ token: String) async throws -> Bool
    func revokeTokens(userID: String, kind: TokenKind?) async throws
    /// Revokes the tokens of one kind issued from one sign-in (`TokenRecord.family`).
    func revokeTokens(family: String, kind: TokenKind) async throws
    func createClient(name: String, redirectURI: String?, ownerID: String?, at now: Date) async throws -> (client: OAuthClient, secret: String)
    func client(id: String) async throws -> OAuthClient?
    func verifyClient(id: String, secret: String) async throws -> OAuthClient?
    func createPersonalToken(userID: String, label: String, at now: Date) async throws -> (id: String, token: String)
    func personalToken(_ token: String) async throws -> TokenRecord?
    func personalTokens() async throws -> [PersonalToken]
    func revokePersonalToken(id: String) async throws -> Bool
}

/// Welltory's callback links: a secret URL per user that turns a measurement into a reading.
public protocol WelltoryLinkStore: AnyObject, Sendable {
    func createWelltoryLink(userID: String, at now: Date) async throws -> String
    func revokeWelltoryLink(userID: String) async throws -> Bool
    func storeWelltoryResult(secret: String, data: [String: FieldValue], at now: Date) async throws -> WelltoryCallbackOutcome
}

/// Exist's API: who owns an attribute, writes that become readings, and what `hmon exist push` sent.
public protocol ExistStore: AnyObject, Sendable {
    func existOwners(userID: String) async throws -> [InsightAttribute: ExistOwner]
    @discardableResult
    func acquireExist(_ attribute: InsightAttribute, userID: String, clientID: String, service: String, at now: Date) async throws -> ExistOwner
    func releaseExist(_ attribute: InsightAttribute, userID: String, clientID: String) async throws -> Bool
    func writeExistDay(userID: String, deviceID: String, field: String, day: (start: Int64, stop: Int64), ts: Int64,
                       value: Double, increment: Bool, at now: Date) async throws -> Double
    func existPushed(server: String, userID: String) async throws -> [String: [String: Double]]
    func rememberExistPushed(server: String, userID: String, values: [(attribute: String, day: String, value: Double)]) async throws
}

/// Imports: hmon's own export and the files of other programs, all or nothing.
public protocol ImportStore: AnyObject, Sendable {
    /// `hmon import` of hmon's own export (CSV or JSON): every reading back with its id, all or nothing.
    func importExport(_ url: URL, userID: String, dryRun: Bool, at now: Date) async throws -> ImportResult
    func importFile(_ url: URL, userID: String, dryRun: Bool, timeZone: TimeZone, options: ImportOptions, at now: Date,
                    progress: (@Sendable (ImportProgress) -> Void)?) async throws -> ImportResult
}

/// The call forms, one per requirement, with the defaults callers rely on. Swift lets a protocol
/// requirement carry no default argument, so each requirement names its time `at:` and the form below
/// names it `now:` with `Date()` as its default: `store.post(message, userID: id)` reads the clock,
/// `store.post(message, userID: id, now: fixed)` is how a test or an import fixes it.
extension AccountStore {
    public func createUser(_ account: NewAccount, now: Date = Date()) async throws -> User {
        try await createUser(account, at: now)
    }
    public func authenticate(name: String, password: String) async throws -> User {
        try await authenticate(name: name, password: password, runningCheckOn: { check in check() })
    }
    public func setPassword(_ password: String, userID: String, now: Date = Date()) async throws {
        try await setPassword(password, userID: userID, at: now)
    }
    public func updateProfile(_ profile: Profile, userID: String, now: Date = Date()) async throws {
        try await updateProfile(profile, userID: userID, at: now)
    }
}

extension DeviceStore {
    public func addDevice(name: String, typeID: String, userID: String, now: Date = Date()) async throws -> Device {
        try await addDevice(name: name, typeID: typeID, userID: userID, at: now)
    }
}

extension ReadingStore {
    /// For a store that reads them all first anyway.
    public func foldReadings<Result: Sendable>(_ query: ReadingsQuery, userID: String, into initial: Result,
                                               _ add: @escaping @Sendable (inout Result, Message) throws -> Void) async throws -> Result {
        var result = initial
        for message in try await readings(query, userID: userID) { try add(&result, message) }
        return result
    }

    @discardableResult
    public func post(_ message: NewMessage, userID: String, mid: String? = nil, now: Date = Date()) async throws -> String {
        try await post(message, userID: userID, mid: mid, at: now)
    }
    public func post(_ message: NewMessage, userID: String, mid: String? = nil, now: Date = Date(),
                     undoSession: String?) async throws -> Message {
        try await post(message, userID: userID, mid: mid, at: now, undoSession: undoSession)
    }
    @discardableResult
    public func postBatch(_ messages: [NewMessage], mids: [String]? = nil, userID: String, now: Date = Date()) async throws -> Int {
        try await postBatch(messages, mids: mids, userID: userID, at: now)
    }
    @discardableResult
    public func editReading(id mid: String, userID: String, change: ReadingChange, now: Date = Date()) async throws -> Message {
        try await editReading(id: mid, userID: userID, change: change, at: now)
    }
    public func lastMessages(deviceID: String, userID: String, count: Int) async throws -> [Message] {
        try await lastMessages(deviceID: deviceID, userID: userID, count: count, field: nil)
    }
}

extension TokenStore {
    public func createToken(kind: TokenKind, userID: String?, clientID: String? = nil, scope: String? = nil,
                            redirectURI: String? = nil, ttl: TimeInterval?, family: String? = nil,
                            codeChallenge: String? = nil, now: Date = Date()) async throws -> (token: String, record: TokenRecord) {
        try await createToken(kind: kind, userID: userID, clientID: clientID, scope: scope, redirectURI: redirectURI,
                              ttl: ttl, family: family, codeChallenge: codeChallenge, at: now)
    }
    public func token(_ token: String, kind: TokenKind? = nil, now: Date = Date()) async throws -> TokenRecord? {
        try await self.token(token, kind: kind, at: now)
    }
    public func consumeToken(_ token: String, kind: TokenKind, now: Date = Date()) async throws -> TokenRecord? {
        try await consumeToken(token, kind: kind, at: now)
    }
    public func redeemToken(_ token: String, kind: TokenKind, now: Date = Date()) async throws -> Redemption {
        try await redeemToken(token, kind: kind, at: now)
    }
    public func revokeTokens(userID: String) async throws { try await revokeTokens(userID: userID, kind: nil) }
    public func createClient(name: String, redirectURI: String?, ownerID: String? = nil, now: Date = Date()) async throws
        -> (client: OAuthClient, secret: String) {
        try await createClient(name: name, redirectURI: redirectURI, ownerID: ownerID, at: now)
    }
    public func createPersonalToken(userID: String, label: String, now: Date = Date()) async throws -> (id: String, token: String) {
        try await createPersonalToken(userID: userID, label: label, at: now)
    }
}

extension WelltoryLinkStore {
    public func createWelltoryLink(userID: String, now: Date = Date()) async throws -> String {
        try await createWelltoryLink(userID: userID, at: now)
    }
    public func storeWelltoryResult(secret: String, data: [String: FieldValue], now: Date = Date()) async throws -> WelltoryCallbackOutcome {
        try await storeWelltoryResult(secret: secret, data: data, at: now)
    }
}

extension ExistStore {
    @discardableResult
    public func acquireExist(_ attribute: InsightAttribute, userID: String, clientID: String, service: String,
                             now: Date = Date()) async throws -> ExistOwner {
        try await acquireExist(attribute, userID: userID, clientID: clientID, service: service, at: now)
    }
    public func writeExistDay(userID: String, deviceID: String, field: String, day: (start: Int64, stop: Int64), ts: Int64,
                              value: Double, increment: Bool, now: Date = Date()) async throws -> Double {
        try await writeExistDay(userID: userID, deviceID: deviceID, field: field, day: day, ts: ts, value: value,
                                increment: increment, at: now)
    }
}

extension ImportStore {
    public func importExport(_ url: URL, userID: String, dryRun: Bool = false, now: Date = Date()) async throws -> ImportResult {
        try await importExport(url, userID: userID, dryRun: dryRun, at: now)
    }
    public func importFile(_ url: URL, userID: String, dryRun: Bool = false, timeZone: TimeZone = .current,
                           options: ImportOptions = ImportOptions(), now: Date = Date(),
                           progress: (@Sendable (ImportProgress) -> Void)? = nil) async throws -> ImportResult {
        try await importFile(url, userID: userID, dryRun: dryRun, timeZone: timeZone, options: options, at: now, progress: progress)
    }
}
