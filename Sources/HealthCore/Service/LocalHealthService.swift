import Foundation
import HealthModel
import Synchronization

/// `HealthService` over a store (`HealthStore`: the SQLite file or a PostgreSQL database), acting for one user at a time.
///
/// Cheap to create: the REST server builds one per request with the token's user; the dashboard and
/// the command line keep one. The signed-in user sits behind a mutex so one instance may be shared
/// between tasks.
public final class LocalHealthService: HealthService {
    public let store: any HealthStore
    /// The calendar of `dayZone`.
    public let dayCalendar: Calendar
    private let state: Mutex<SignedIn?>

    /// How long a local sign-in lasts before `hmon` asks for the password again.
    public static let sessionLifetime: TimeInterval = 90 * 24 * 3600

    private struct SignedIn: Sendable {
        var userID: String
        /// The session token to revoke on sign-out (nil when acting as a user without signing in).
        var token: String?
        /// Whose undo journal the changes go to (`UndoJournal.session`); nil keeps no journal.
        var undoSession: String?
    }

    /// - Parameter userID: act for this user from the start (the server, after checking a token).
    /// - Parameter undoSession: the journal its adds, edits and deletes go to, for `undoLastChange`
    ///   (the server passes its token's); nil keeps none (an Exist push, a client posting for its owner).
    /// - Parameter dayZone: where a person's day starts when one way's day of steps or energy is weighed
    ///   against another's (`DuplicateSettling`): the zone hmon runs in, as for views asked without one.
    public init(store: any HealthStore, userID: String? = nil, undoSession: String? = nil, dayZone: TimeZone = .current) {
        self.store = store
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = dayZone
        self.dayCalendar = calendar
        self.state = Mutex(userID.map { SignedIn(userID: $0, token: nil, undoSession: undoSession) })
    }

    public var location: String { store.location }

    /// The signed-in user's id, if any.
    public var userID: String? { state.withLock { $0?.userID } }

    /// Acts for the user named `name` without a password: whoever can open the file can read it anyway.
    /// Throws `.unknownUser`.
    @discardableResult
    public func actingAs(name: String) async throws -> User {
        guard let user = try await store.user(named: name) else { throw HealthError.unknownUser(name) }
        state.withLock { $0 = SignedIn(userID: user.id, token: nil, undoSession: UndoJournal.tokenlessSession) }
        return user
    }

    // MARK: Accounts

    public func signIn(name: String, password: String) async throws -> Session {
        let user = try await store.authenticate(name: name, password: password)
        let (token, record) = try await store.createToken(kind: .session, userID: user.id, ttl: Self.sessionLifetime)
        state.withLock { $0 = SignedIn(userID: user.id, token: token, undoSession: UndoJournal.session(ofToken: token)) }
        return Session(userID: user.id, userName: user.name, location: location, token: token, expiresAt: record.expiresAt)
    }

    public func resume(_ session: Session) async throws -> User {
        guard session.location == location,
              let record = try await store.token(session.token, kind: .session),
              record.userID == session.userID,
              let user = try await store.user(id: session.userID)
        else { throw HealthError.sessionExpired }
        state.withLock { $0 = SignedIn(userID: user.id, token: session.token, undoSession: UndoJournal.session(ofToken: session.token)) }
        return user
    }

    public func signOut() async throws {
        let token = state.withLock { signedIn -> String? in
            defer { signedIn = nil }
            return signedIn?.token
        }
        if let token { try await store.revokeToken(token) }
    }

    public func hasAccounts() async throws -> Bool { try await store.hasUsers() }

    public func createAccount(_ account: NewAccount) async throws -> User { try await store.createUser(account) }

    public func currentUser() async throws -> User {
        let id = try requireUser()
        guard let user = try await store.user(id: id) else { throw HealthError.sessionExpired }
        return user
    }

    public func profile() async throws -> Profile { try await store.profile(userID: try requireUser()) }

    public func updateProfile(_ profile: Profile) async throws {
        try await store.updateProfile(profile, userID: try requireUser())
    }

    // MARK: Devices

    public func devices() async throws -> [Device] { try await store.devices(userID: try requireUser()) }

    public func renameDevice(id: String, to name: String) async throws -> Device {
        try await store.renameDevice(id: id, userID: try requireUser(), to: name)
    }

    public func deleteDevice(id: String, withReadings: Bool) async throws -> DeviceDeletion {
        try await store.deleteDevice(id: id, userID: try requireUser(), onlyIfEmpty: !withReadings)
    }

    public func mergeDevice(id from: String, into: String) async throws -> Int {
        try await store.mergeDevice(id: from, into: into, userID: try requireUser())
    }

    public func addDevice(name: String, typeID: String) async throws -> Device {
        try await store.addDevice(name: name, typeID: typeID, userID: try requireUser())
    }

    public func deviceTypes() async throws -> [DeviceType] { try await store.deviceTypes() }

    public func deviceType(named name: String) async throws -> DeviceType? { try await store.deviceType(named: name) }

    public func manifest(ofType typeID: String) async throws -> Manifest { try await store.manifest(ofType: typeID) }

    // MARK: Messages

    public func lastMessages(device: String, count: Int, field: String?) async throws -> [Message] {
        try await store.lastMessages(deviceID: device, userID: try requireUser(), count: count, field: field)
    }

    public func messages(_ query: MessageQuery) async throws -> MessagePage {
        try await store.messages(query, userID: try requireUser())
    }

    @discardableResult
    public func post(_ message: NewMessage) async throws -> String {
        // The add and its undo entry in one write: the hot path of a server taking a scale's or a phone's posts.
        try await store.post(message, userID: try requireUser(), mid: nil, now: Date(), undoSession: undoSession).mid
    }

    public func reading(id: String) async throws -> Message {
        try await store.reading(id: id, userID: try requireUser())
    }

    public func readingID(matching text: String) async throws -> String {
        let userID = try requireUser()
        return try await ReadingIDPrefix.resolve(text) { prefix, limit in
            try await store.readingIDs(startingWith: prefix, userID: userID, limit: limit)
        }
    }

    public func readings(_ query: ReadingsQuery) async throws -> [Message] {
        try await store.readings(query, userID: try requireUser())
    }

    /// `readings(_:)`, each handed to `add` as it is read (`ReadingStore.foldReadings`).
    public func foldReadings<Result: Sendable>(_ query: ReadingsQuery, into initial: Result,
                                               _ add: @escaping @Sendable (inout Result, Message) throws -> Void) async throws -> Result {
        try await store.foldReadings(query, userID: try requireUser(), into: initial, add)
    }

    public func readingCounts(since: Date) async throws -> [String: Int] {
        try await store.readingCounts(userID: try requireUser(), since: since.millisecondsSince1970)
    }

    @discardableResult
    public func editReading(id: String, _ change: ReadingChange) async throws -> Message {
        let userID = try requireUser()
        guard let session = undoSession else { return try await store.editReading(id: id, userID: userID, change: change) }
        let before = try await store.reading(id: id, userID: userID)
        let after = try await store.editReading(id: id, userID: userID, change: change)
        try await journal(.edit, before, userID: userID, session: session)
        return after
    }

    public func deleteReading(id: String) async throws {
        let userID = try requireUser()
        let deleted = try await store.deleteReading(id: id, userID: userID)
        if let session = undoSession { try await journal(.delete, deleted, userID: userID, session: session) }
        // A twin kept aside for it (the same weigh-in by another way) is counted now: deleting one copy
        // leaves the measurement.
        try await settleDuplicates(around: [(deleted.ts, deleted.data)], userID: userID)
    }

    // MARK: Derived views

    public func energySummary(for day: Day, now: Date, calendar: Calendar) async throws -> EnergySummary {
        try await energySummaries(for: day...day, now: now, calendar: calendar)[0]
    }

    public func energySummaries(for days: ClosedRange<Day>, now: Date, calendar: Calendar) async throws -> [EnergySummary] {
        let userID = try requireUser()
        let all = (0...days.lowerBound.days(to: days.upperBound)).map { days.lowerBound.adding(days: $0) }
        let periods = all.map { day in
            (from: day.start(in: calendar).millisecondsSince1970, to: day.adding(days: 1).start(in: calendar).millisecondsSince1970)
        }
        let inputs = try await store.energyInputs(userID: userID, periods: periods)
        // The day's weight, as the insights and Exist read it: the mean of the weigh-ins of the latest day
        // weighed. The days' windows are read in one query, not one a day: on PostgreSQL each query is a
        // round trip, and a month of days cost the overview 30 of them.
        let windows = zip(periods, inputs.periods).map { bounds, period in
            period.weight.map { DayWeight.window(of: $0, end: bounds.to, calendar: calendar) }
        }
        var weighIns: [WeightReading] = []
        if let from = windows.compactMap({ $0?.from }).min(), let to = windows.compactMap({ $0?.to }).max() {
            weighIns = try await store.weightReadings(userID: userID, from: from, to: to)
        }
        var summaries: [EnergySummary] = []
        for (day, (window, period)) in zip(all, zip(windows, inputs.periods)) {
            var weightKg = period.weight?.kg
            if let latest = period.weight, let window {
                let inWindow = weighIns.filter { $0.date.millisecondsSince1970 >= window.from && $0.date.millisecondsSince1970 < window.to }
                weightKg = DayWeight.kg(inWindow.map(\.kg), latest: latest.kg)
            }
            summaries.append(EnergyCalculator.summary(day: day, profile: inputs.profile, weightKg: weightKg,
                                                      totals: period.totals, now: now, calendar: calendar))
        }
        return summaries
    }

    public func linkHealth(days: Int, now: Date) async throws -> [LinkHealthView] {
        let name = try await currentUser().name
        return try await store.linkHealth(sinceDay: LinkHealth.day(of: now) - Int64(days) + 1)
            .filter { $0.link.userName == name }
            .map { LinkHealthView($0, days: days, now: now) }
    }

    public func devicesOverview() async throws -> DevicesOverview {
        guard let overview = try await store.devicesOverview(userID: try requireUser()) else { throw HealthError.sessionExpired }
        return overview
    }

    public func weightSeries(days: ClosedRange<Day>, calendar: Calendar) async throws -> WeightSeries {
        let userID = try requireUser()
        let first = days.lowerBound.adding(days: -WeightSeriesBuilder.carryDays)
        let count = first.days(to: days.upperBound) + 1
        let all = (0..<count).map { first.adding(days: $0) }
        let starts = all.map { $0.start(in: calendar).millisecondsSince1970 }
        let end = days.upperBound.adding(days: 1).start(in: calendar).millisecondsSince1970
        let totals = try await store.dailyWeightTotals(userID: userID, dayStarts: starts, end: end)
        let byDay = Dictionary(uniqueKeysWithValues: totals.map { (all[$0.key], $0.value) })
        return WeightSeriesBuilder.series(dailyTotals: byDay, days: days)
    }

    public func dailyTotals(days: ClosedRange<Day>, calendar: Calendar) async throws -> [Day: DayTotals] {
        let userID = try requireUser()
        let all = (days.lowerBound.ordinal...days.upperBound.ordinal).map(Day.init(ordinal:))
        let starts = all.map { $0.start(in: calendar).millisecondsSince1970 }
        let end = Day(ordinal: days.upperBound.ordinal + 1).start(in: calendar).millisecondsSince1970
        let totals = try await store.dayTotals(userID: userID, dayStarts: starts, end: end)
        return Dictionary(uniqueKeysWithValues: totals.map { (all[$0.key], $0.value) })
    }

    public func changeToken() async throws -> Int64? { try await store.changeToken() }

    // MARK: Undo

    /// The journal this service's changes go to; nil when it keeps none.
    var undoSession: String? { state.withLock { $0?.undoSession } }

    /// An edit's or a delete's entry, kept after the change in a transaction of its own: were the journal's
    /// write to fail, the change stands and the error says so; it is only not undoable. (An add's goes in
    /// the add's own transaction: `post`.)
    private func journal(_ kind: ReadingChangeKind, _ reading: Message, userID: String, session: String) async throws {
        let now = Date()
        try await store.recordChange(UndoJournalEntry(kind: kind, reading: reading, madeAt: now), userID: userID, session: session, now: now)
    }

    func requireUser() throws -> String {
        guard let id = state.withLock({ $0?.userID }) else { throw HealthError.notSignedIn }
        return id
    }
}
