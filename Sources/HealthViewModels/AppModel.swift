import Foundation
import HealthCore
import HealthModel

/// A screen's name: what the tabs, `hmon snapshot --screen` and the reference frames call it. Screens
/// declare their own (`extension ScreenID { static let weights = ScreenID("weights") }`), so a new screen
/// needs no change here.
public struct ScreenID: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { self.rawValue = name }

    public var description: String { rawValue }

    /// The sign-in form, before any screen of the dashboard.
    public static let signIn = ScreenID("signin")
    /// You and your devices: where the dashboard opens after sign-in.
    public static let devices = ScreenID("devices")
}

/// Saving and clearing the signed-in session between launches (the session file, or nothing in tests).
/// Both throw: a session that cannot be saved or deleted is said on screen, not hidden.
public struct SessionKeeper: Sendable {
    public var save: @Sendable (Session) throws -> Void
    public var clear: @Sendable () throws -> Void

    public init(save: @escaping @Sendable (Session) throws -> Void, clear: @escaping @Sendable () throws -> Void) {
        self.save = save
        self.clear = clear
    }

    public static let none = SessionKeeper(save: { _ in }, clear: {})
}

/// What the whole dashboard shares: who is signed in, which screen is showing and the way back, the
/// sign-in form and the devices (other screens pick their device from them), the sign-out question and
/// live updates. Each screen's own model belongs to the screen (see HMonTUI's screen registry).
@MainActor
public final class AppModel {
    public private(set) var screen: ScreenID = .signIn
    public private(set) var user: User?
    public let service: any HealthService
    public let clock: Clock
    public let signIn: SignInModel
    public let devices: DevicesModel
    /// The profile's mass unit, once loaded after sign-in.
    public private(set) var preferredMass: MassUnit?
    /// The profile's energy unit, once loaded after sign-in.
    public private(set) var preferredEnergy: EnergyUnit?
    /// The sign-out question is open: "Sign out? y/n".
    public private(set) var isConfirmingSignOut = false
    /// The profile form, while it is open (`p`, or the setup after an account is created).
    public private(set) var profileForm: ProfileModel?
    /// Goes up at every sign-in and sign-out: state made for one user is thrown away when it changes.
    public private(set) var signInCount = 0
    /// A problem that belongs to no one screen (live updates, the session file); the status bar shows it
    /// when the screen has none of its own.
    public private(set) var problem: String?

    private var history: [ScreenID] = []
    private let sessions: SessionKeeper
    private let loads = LoadSlot(model: "app")
    private let tokenLoads = LoadSlot(model: "app.changes")
    private let writes = WriteSlot(model: "app")
    private var lastChangeToken: Int64?
    /// Whether the service has a change token: nil until asked, false for a server (poll it instead).
    private var hasChangeToken: Bool?
    private var lastPoll: Date
    /// Where the server's change feed stands (`changes()`); `.none` on a local store and until it first speaks.
    private var feed = FeedState.none
    /// A change the feed told while the screen could not reload (a prompt was open): reloaded at the next tick.
    private var feedChangeWaiting = false

    private enum FeedState { case none, following, down, unsupported }

    public init(service: any HealthService, clock: Clock = .system, sessions: SessionKeeper = .none) {
        self.service = service
        self.clock = clock
        self.sessions = sessions
        self.signIn = SignInModel(service: service)
        self.devices = DevicesModel(service: service, clock: clock)
        self.lastPoll = clock.now()
    }

    /// True while anything the dashboard as a whole asked for runs (signing in or out, the profile).
    public var isBusy: Bool { loads.isRunning || writes.isRunning || signIn.isBusy }

    /// Where the data lives, for the status bar.
    public var location: String { service.location }

    /// The location with the home folder written as "~", for the status bar.
    public var shortLocation: String {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        let path = location
        if !home.isEmpty, home != "/", path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
        return path
    }

    /// "demo (Demo User)" for the status bar; nil before sign-in.
    public var signedInAs: String? {
        user.map { $0.fullName.isEmpty ? $0.name : "\($0.name) (\($0.fullName))" }
    }

    /// "offline since 19:41" while the server does not answer (the screen then shows what it loaded last);
    /// nil when it does, and on a local store.
    public var offlineText: String? {
        service.offlineSince.map { date in
            let c = DateText.parts(of: date, in: clock.calendar)
            return "offline since \(c.hh):\(c.mm)"
        }
    }

    /// What the server's client noticed about it (an older server), for the status bar.
    public var serverNotice: String? { service.serverNotice }

    /// "updated 18:04", for the status bar.
    public func updatedText(_ date: Date) -> String { "updated \(Formats(calendar: clock.calendar).time(date))" }

    // MARK: Starting and signing in

    /// Resumes a saved session when there is one and it is still valid; otherwise shows sign-in.
    public func start(savedSession: Session?, userName: String? = nil) -> Command {
        screen = .signIn
        if let userName { signIn.prefill(userName: userName) }
        guard let savedSession, savedSession.location == service.location else { return signIn.prepare() }
        let service = service
        return Command(loads.load("resume \(savedSession.userName)") {
            try await service.resume(savedSession)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let user):
                self.user = user
                return enterDashboard(knowing: user)
            case .failure:
                var note: String?
                do { try sessions.clear() } catch { note = Self.cannotDelete(error) }
                signIn.prefill(userName: savedSession.userName)
                return signIn.prepare(problem: note)
            }
        })
    }

    /// Opens the dashboard on a service that already acts for a user (`--user NAME` on a local store, snapshots).
    public func startSignedIn() -> Command { enterDashboard() }

    /// Enter on the sign-in form.
    public func submitSignIn() -> Command {
        signIn.submit { [weak self] session in
            guard let self else { return .none }
            do {
                try sessions.save(session)
                problem = nil
            } catch {
                problem = "signed in, but the session could not be saved for next time: \(describe(error))"
            }
            // A person who just made their account is asked for units and body figures first.
            let entered = enterDashboard()
            return entered + (signIn.createdAccount ? openProfile(setup: true) : .none)
        }
    }

    // MARK: The profile

    /// `p`: the profile form over the screen; `setup` for the first run (it also makes a scale and a food log).
    public func openProfile(setup: Bool = false) -> Command {
        guard user != nil || screen != .signIn else { return .none }
        let form = ProfileModel(service: service, clock: clock, isSetup: setup)
        profileForm = form
        return form.load()
    }

    /// Enter on the form: saves it, closes it, and runs `then` (the screen on show reloads in the new units).
    public func submitProfile(then: @escaping @MainActor () -> Command) -> Command {
        guard let form = profileForm else { return .none }
        return form.submit { [weak self] profile in
            guard let self else { return .none }
            preferredMass = profile.massUnit
            preferredEnergy = profile.energyUnit
            profileForm = nil
            return then() + devices.refresh()
        }
    }

    /// Esc on the form: closes it unsaved (at setup, the figures can be given later with `p`).
    public func closeProfile() { profileForm = nil }

    /// - Parameter known: the user when resuming a session already told who it is (no second request).
    private func enterDashboard(knowing known: User? = nil) -> Command {
        history = []
        screen = .devices
        signInCount += 1
        let service = service
        let profile = Command(loads.load("user and profile") {
            async let profile = service.profile()
            let user = if let known { known } else { try await service.currentUser() }
            return (user, try await profile)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let (user, profile)):
                self.user = user
                preferredMass = profile.massUnit
                preferredEnergy = profile.energyUnit
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
        return profile + devices.refresh() + rememberChangeToken()
    }

    // MARK: Moving between screens

    /// Shows `target`, remembering where we came from for Esc.
    public func go(to target: ScreenID) {
        guard screen != .signIn, target != .signIn else { return }
        if screen != target { history.append(screen) }
        screen = target
    }

    /// Esc / Backspace: the previous screen, or devices.
    public func back() {
        guard screen != .signIn, screen != .devices else { return }
        screen = history.popLast() ?? .devices
        if screen == .signIn { screen = .devices }
    }

    // MARK: Live updates

    /// Once a second from the event loop. On a local store: a cheap look at its change token, and `refresh`
    /// when it moved (another process wrote). A server has no token: its change feed says when to refresh
    /// (`changeFeed`); a server without one is polled, `refresh` every `pollInterval` seconds.
    /// A look that fails is said in the status bar; it does not quietly turn into polling.
    public func liveUpdate(pollInterval: TimeInterval, refresh: @escaping @MainActor () -> Command) -> Command {
        guard screen != .signIn, user != nil || devices.lastUpdated != nil, !tokenLoads.isRunning else { return .none }
        if feed == .following || feed == .down {
            // The server's change feed says when to reload: no polling while it is followed or being reopened.
            guard feedChangeWaiting else { return .none }
            feedChangeWaiting = false
            return refresh()
        }
        if hasChangeToken == false {
            guard clock.now().timeIntervalSince(lastPoll) >= pollInterval else { return .none }
            lastPoll = clock.now()
            return refresh()
        }
        let service = service
        return Command(tokenLoads.load("change token") {
            try await service.changeToken()
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(nil):
                hasChangeToken = false
                lastPoll = clock.now()
                return .none
            case .success(let token?):
                hasChangeToken = true
                if problem?.hasPrefix(Self.changeCheckFailed) == true { problem = nil }
                defer { lastChangeToken = token }
                return lastChangeToken != nil && token != lastChangeToken ? refresh() : .none
            case .failure(let error):
                problem = "\(Self.changeCheckFailed): \(describe(error)); R refreshes by hand"
                return .none
            }
        })
    }

    /// What the server's change feed said (see `HealthService.changes()`). `.changed` reloads the screen on
    /// show at once, or at the next tick when `canReloadNow` is false (a prompt is open); `.connected` reloads
    /// too, since what changed before the feed was open (after sign-in, or while it was down) was not told;
    /// `.unsupported` (an older server) goes back to polling every `pollInterval`.
    public func changeFeed(_ event: ChangeFeedEvent, canReloadNow: Bool, refresh: @escaping @MainActor () -> Command) -> Command {
        switch event {
        case .connected: feed = .following
        case .disconnected: feed = .down
        case .unsupported: feed = .unsupported
        case .changed: break
        }
        switch event {
        case .changed, .connected: break
        case .disconnected, .unsupported: return .none
        }
        guard screen != .signIn, user != nil || devices.lastUpdated != nil else { return .none }
        guard canReloadNow else {
            feedChangeWaiting = true
            return .none
        }
        feedChangeWaiting = false
        return refresh()
    }

    /// Reads the change token after a refresh of our own, so our own writes do not count as news.
    public func rememberChangeToken() -> Command {
        guard hasChangeToken != false else { return .none }
        let service = service
        return Command(tokenLoads.load("change token after refresh") {
            try await service.changeToken()
        } apply: { [weak self] result in
            if case .success(let token) = result, let self {
                hasChangeToken = token != nil
                if let token { lastChangeToken = token }
            }
            return .none
        })
    }

    private static let changeCheckFailed = "cannot watch the store for changes"

    // MARK: Undo

    /// U: undoes the newest add, edit or delete of this session (`HealthService.undoLastChange`), then
    /// `then` gets the line the status bar says ("undid: removed the weigh-in of 27.2 kg at …") and returns
    /// what reloads. A failure is said the same way: nothing was changed.
    /// `then` also gets what kind of reading was undone, so the dashboard can say on which screen it shows.
    public func undoLastChange(then: @escaping @MainActor (String, ReadingKindWord?) -> Command) -> Command {
        guard user != nil else { return .none }
        let service = service
        let units = QuantityText(massUnit: preferredMass ?? .kg, energyUnit: preferredEnergy ?? .kcal)
        let formats = Formats(calendar: clock.calendar)
        return Command(writes.write("undo") {
            try await service.undoLastChange()
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let outcome):
                let sentence = outcome.sentence(in: units) { formats.dateTime($0) }
                return then(outcome.undone == nil || outcome.notPossible != nil ? sentence : "undid: " + sentence,
                            outcome.readingKind) + devices.refresh()
            case .failure(let error):
                return then("could not undo: \(describe(error))", nil)
            }
        })
    }

    // MARK: Signing out

    /// L: asks first.
    public func askSignOut() { isConfirmingSignOut = true }
    public func cancelSignOut() { isConfirmingSignOut = false }

    /// y: ends the session, forgets it, and shows the sign-in form. If the session file cannot be deleted,
    /// the form says so: the next launch would otherwise sign in again without asking.
    public func signOut() -> Command {
        isConfirmingSignOut = false
        let service = service
        let name = user?.name
        return Command(writes.write("sign out") {
            try await service.signOut()
        } apply: { [weak self] result in
            guard let self else { return .none }
            var problems: [String] = []
            if case .failure(let error) = result { problems.append("the session may still be open: \(describe(error))") }
            do { try sessions.clear() } catch { problems.append(Self.cannotDelete(error)) }
            user = nil
            problem = nil
            profileForm = nil
            history = []
            screen = .signIn
            signInCount += 1
            loads.invalidate()
            tokenLoads.invalidate()
            lastChangeToken = nil
            if let name { signIn.prefill(userName: name) }
            return signIn.prepare(problem: problems.isEmpty ? nil : "signed out, but " + problems.joined(separator: "; "))
        })
    }

    private static func cannotDelete(_ error: any Error) -> String {
        "the saved session could not be deleted (\(describe(error))): delete it by hand or the next launch signs in again"
    }
}
