import Foundation
import HealthModel

/// The one service the faces (dashboard, command line, REST server) use.
///
/// Two implementations: `LocalHealthService` (SQLite, the embedded default) and `RemoteHealthService`
/// (a SAMI-compatible server over HTTP). A service instance acts for at most one signed-in user;
/// calls that need a user throw `HealthError.notSignedIn` before `signIn`/`resume`.
/// Every error thrown is a `HealthError` whose `message` a person can act on.
public protocol HealthService: Sendable {
    /// Where the data lives, for the status bar: a file path or a server URL.
    var location: String { get }
    /// Since when the data has been out of reach (a server that stopped answering); nil when it answers, and
    /// always nil for a local store.
    var offlineSince: Date? { get }
    /// Something about the server the person should know once (an older server, so screens load slower);
    /// nil for a local store.
    var serverNotice: String? { get }

    // MARK: Accounts

    /// Checks the credentials and signs in; the returned session can be saved and resumed later.
    func signIn(name: String, password: String) async throws -> Session
    /// Signs in again with a saved session; throws `.sessionExpired` when it is no longer valid.
    func resume(_ session: Session) async throws -> User
    /// Ends the session (the token is revoked where the store keeps one).
    func signOut() async throws
    /// Whether any account exists (a fresh local store offers to create one).
    func hasAccounts() async throws -> Bool
    /// Creates an account; throws `.nameTaken`, `.invalidValue` (empty name, short password).
    func createAccount(_ account: NewAccount) async throws -> User

    func currentUser() async throws -> User
    func profile() async throws -> Profile
    func updateProfile(_ profile: Profile) async throws

    // MARK: Devices

    /// The signed-in user's devices, oldest first.
    func devices() async throws -> [Device]
    func addDevice(name: String, typeID: String) async throws -> Device
    func renameDevice(id: String, to name: String) async throws -> Device
    /// Deletes a device with its readings; unless `withReadings`, only when it has none (see `DeviceDeletion`).
    func deleteDevice(id: String, withReadings: Bool) async throws -> DeviceDeletion
    /// Moves every reading of the device `from` onto `into` (both the user's), in one transaction; returns
    /// how many moved. `from` stays, empty. A server has no such route: the default throws `.unsupported`.
    func mergeDevice(id from: String, into: String) async throws -> Int
    func deviceTypes() async throws -> [DeviceType]
    /// Looks a device type up by its name ("Withings Device"); nil when there is none.
    func deviceType(named name: String) async throws -> DeviceType?
    /// The latest manifest of a device type; throws `.unknownDeviceType`.
    func manifest(ofType typeID: String) async throws -> Manifest

    // MARK: Messages

    /// The last `count` messages of a device, newest first; only those carrying `field` when given.
    func lastMessages(device: String, count: Int, field: String?) async throws -> [Message]
    /// A page of a device's messages in a time range.
    func messages(_ query: MessageQuery) async throws -> MessagePage
    /// Adds a reading; returns its `mid`. Throws `.invalidValue` for values outside sane ranges.
    @discardableResult
    func post(_ message: NewMessage) async throws -> String
    /// One of the user's readings by id; throws `.unknownReading`, `.notYourReading`.
    func reading(id: String) async throws -> Message
    /// The whole id of the user's one reading whose id starts with `text` (`ReadingIDPrefix`).
    func readingID(matching text: String) async throws -> String
    /// The user's readings over all their devices, in time order, as the query asks.
    func readings(_ query: ReadingsQuery) async throws -> [Message]
    /// How many readings each of the user's devices holds from `since` on, by device id: a device sending
    /// every minute sends 1,440 a day, so this is counted where the readings are when it can be.
    func readingCounts(since: Date) async throws -> [String: Int]
    /// Corrects one of the user's readings (time and/or fields), checked like a new one; returns it as stored.
    @discardableResult
    func editReading(id: String, _ change: ReadingChange) async throws -> Message
    /// Deletes one of the user's readings; it leaves every screen, series and total.
    func deleteReading(id: String) async throws
    /// Undoes the newest add, edit or delete of this session (the dashboard's, the command line's saved
    /// session, or the server token's), one step further back each time; `.nothing` when none is left.
    /// A change the reading has moved on from since is dropped, and the outcome says why.
    func undoLastChange() async throws -> UndoOutcome

    // MARK: Derived views

    /// Active, resting, consumed and net energy for a local day (resting prorated up to `now` for today).
    func energySummary(for day: Day, now: Date, calendar: Calendar) async throws -> EnergySummary
    /// The daily weight series (averaged, carried forward) of the user's weight readings over `days`.
    func weightSeries(days: ClosedRange<Day>, calendar: Calendar) async throws -> WeightSeries
    /// The user's readings summed per local day over `days`: what the insights are computed from.
    /// A server has no such route: the default throws `.unsupported`.
    func dailyTotals(days: ClosedRange<Day>, calendar: Calendar) async throws -> [Day: DayTotals]

    // MARK: A screen at once (defaults in HealthService+Screens.swift compose the calls above)

    /// The user, their devices, the device types, the manifests in use and each device's latest
    /// reading, as of one moment: what the devices screen shows.
    func devicesOverview() async throws -> DevicesOverview
    /// The energy summaries of consecutive days, oldest first: the energy screen's week.
    func energySummaries(for days: ClosedRange<Day>, now: Date, calendar: Calendar) async throws -> [EnergySummary]
    /// Each screen's data after a load: one request to a server that has hmon's screen views.
    func devicesScreen(_ ask: DevicesScreenData.Ask) async throws -> DevicesScreenData
    /// The user's own links with what came by each over the last `days` (the sync doctor, `hmon sources`);
    /// none where the service cannot say (an older server).
    func linkHealth(days: Int, now: Date) async throws -> [LinkHealthView]
    /// The user's readings kept aside as the same measurement as a counted one (`DuplicateSettling`), stamped
    /// in `from..<to` (ms), oldest first; none where the service cannot say (an older server).
    func asideReadings(from: Int64, to: Int64) async throws -> [AsideReading]
    func weightsScreen(_ ask: WeightsScreenData.Ask) async throws -> WeightsScreenData
    func energyScreen(_ ask: EnergyScreenData.Ask) async throws -> EnergyScreenData
    func hrvScreen(_ ask: HRVScreenData.Ask) async throws -> HRVScreenData
    func insightsScreen(_ ask: InsightsScreenData.Ask) async throws -> InsightsScreenData
    func overviewScreen(_ ask: OverviewScreenData.Ask) async throws -> OverviewScreenData
    /// The nights of the `days` days ending on `through` with their measures, and the regularity, debt and
    /// consistency on that day (`SleepReport`): the Sleep screen, `hmon sleep` and the `sleep` view.
    func sleepReport(_ ask: SleepReportAsk) async throws -> SleepReport
    /// The newest readings of each vital sign, with the devices' names and the profile: the Vitals screen.
    func vitalsScreen(_ ask: VitalsScreenData.Ask) async throws -> VitalsScreenData

    // MARK: Change detection

    /// A value that changes whenever the underlying data may have changed (SQLite's `data_version`
    /// plus local writes; for a server, nil: poll instead). Cheap enough to call every second.
    func changeToken() async throws -> Int64?
    /// A server's change feed, held open for as long as the stream is read: a dashboard reloads on
    /// `.changed` instead of polling. Nil for a local store, whose `changeToken()` is cheap to look at.
    func changes() -> AsyncStream<ChangeFeedEvent>?
}

extension HealthService {
    public var offlineSince: Date? { nil }

    public var serverNotice: String? { nil }

    public func changes() -> AsyncStream<ChangeFeedEvent>? { nil }

    public func linkHealth(days: Int, now: Date) async throws -> [LinkHealthView] { [] }

    public func asideReadings(from: Int64, to: Int64) async throws -> [AsideReading] { [] }

    public func undoLastChange() async throws -> UndoOutcome {
        throw HealthError.unsupported("this service keeps no undo journal")
    }

    public func mergeDevice(id from: String, into: String) async throws -> Int {
        throw HealthError.unsupported(
            "merging devices needs the store itself: run it where the store is (`hmon device merge --db PATH`), not through --server")
    }

    public func dailyTotals(days: ClosedRange<Day>, calendar: Calendar) async throws -> [Day: DayTotals] {
        throw HealthError.unsupported("insights need the store itself: run them where the store is (`hmon insights --db PATH`), not through --server")
    }
}

/// What it takes to open an account.
public struct NewAccount: Sendable, Equatable {
    public var name: String
    public var fullName: String
    public var email: String
    public var password: String

    public init(name: String, fullName: String = "", email: String = "", password: String) {
        self.name = name
        self.fullName = fullName
        self.email = email
        self.password = password
    }
}
