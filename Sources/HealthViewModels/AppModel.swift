import Foundation
import HealthCore

/// The screens of the dashboard, in Tab order after sign-in.
public enum ScreenID: String, Sendable, CaseIterable {
    case signIn, devices, weights, energy

    /// Devices, weights, energy: what Tab and 1/2/3 move between.
    public static let tabs: [ScreenID] = [.devices, .weights, .energy]

    public var tabTitle: String {
        switch self {
        case .signIn: "Sign in"
        case .devices: "Devices"
        case .weights: "Weights"
        case .energy: "Energy"
        }
    }
}

/// Saving and clearing the signed-in session between launches (the session file, or nothing in tests).
public struct SessionKeeper: Sendable {
    public var save: @Sendable (Session) -> Void
    public var clear: @Sendable () -> Void

    public init(save: @escaping @Sendable (Session) -> Void, clear: @escaping @Sendable () -> Void) {
        self.save = save
        self.clear = clear
    }

    public static let none = SessionKeeper(save: { _ in }, clear: {})
}

/// Routes between the screens and owns their models: sign in → devices → weights / energy.
@MainActor
public final class AppModel {
    public private(set) var screen: ScreenID = .signIn
    public private(set) var user: User?
    public let service: any HealthService
    public let clock: Clock
    public let signIn: SignInModel
    public let devices: DevicesModel
    public let energy: EnergyModel
    /// The weights of the chosen scale; nil until one is opened.
    public private(set) var weights: WeightsModel?
    /// The sign-out question is open: "Sign out? y/n".
    public private(set) var isConfirmingSignOut = false
    /// How many weight rows fit on screen (the dashboard tells, from the terminal size).
    public var weightRowsWanted = WeightsModel.pageSize {
        didSet { weights?.rowsWanted = weightRowsWanted }
    }
    /// The previous screen for Esc/Backspace.
    private var history: [ScreenID] = []
    private let sessions: SessionKeeper
    private var preferredMass: MassUnit?
    private var lastChangeToken: Int64?

    public init(service: any HealthService, clock: Clock = .system, sessions: SessionKeeper = .none) {
        self.service = service
        self.clock = clock
        self.sessions = sessions
        self.signIn = SignInModel(service: service)
        self.devices = DevicesModel(service: service, clock: clock)
        self.energy = EnergyModel(service: service, clock: clock)
    }

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

    // MARK: Starting and signing in

    /// Resumes a saved session when there is one and it is still valid; otherwise shows sign-in.
    public func start(savedSession: Session?, userName: String? = nil) async {
        if let savedSession, savedSession.location == service.location {
            do {
                user = try await service.resume(savedSession)
                await enterDashboard()
                return
            } catch {
                sessions.clear()
                await signIn.prepare()
                signIn.prefill(userName: savedSession.userName)
                screen = .signIn
                return
            }
        }
        await signIn.prepare()
        if let userName { signIn.prefill(userName: userName) }
        screen = .signIn
    }

    /// Opens the dashboard on a service that already acts for a user (`--user NAME` on a local store, snapshots).
    public func startSignedIn() async {
        user = try? await service.currentUser()
        await enterDashboard()
    }

    /// Enter on the sign-in form.
    public func submitSignIn() async {
        guard let session = await signIn.submit() else { return }
        sessions.save(session)
        user = try? await service.currentUser()
        await enterDashboard()
    }

    private func enterDashboard() async {
        preferredMass = (try? await service.profile())?.massUnit
        history = []
        screen = .devices
        await devices.refresh()
        if user == nil { user = try? await service.currentUser() }
        energy.foodLog = devices.firstFoodLog
        lastChangeToken = try? await service.changeToken()
    }

    // MARK: Moving between screens

    /// Opens a screen from Tab or 1/2/3. Weights opens the selected device when it has a weight,
    /// else the first scale; it stays put (with a problem) when there is none.
    public func show(_ target: ScreenID) async {
        guard screen != .signIn, target != .signIn, target != screen else { return }
        if target == .weights {
            let device = devices.selectedDevice.flatMap { devices.manifest(of: $0)?.hasWeight == true ? $0 : nil }
                ?? weights?.device ?? devices.firstWeightDevice
            guard let device else {
                devices.reportNoScale()
                return
            }
            await openWeights(of: device)
            return
        }
        go(to: target)
        if target == .energy {
            energy.foodLog = devices.firstFoodLog
            await energy.refresh()
        }
    }

    /// Tab / Shift-Tab.
    public func cycle(forward: Bool) async {
        let tabs = ScreenID.tabs
        guard let i = tabs.firstIndex(of: screen) else { return }
        let next = tabs[(i + (forward ? 1 : tabs.count - 1)) % tabs.count]
        if next == .weights, devices.firstWeightDevice == nil {
            // Skip a tab that cannot open rather than stop on it.
            let after = tabs[(tabs.firstIndex(of: next)! + (forward ? 1 : tabs.count - 1)) % tabs.count]
            await show(after)
        } else {
            await show(next)
        }
    }

    /// Enter on a device: its weights when its manifest has a weight; otherwise the reason stays on screen.
    public func openSelectedDevice() async {
        guard let device = devices.selectedDevice, let row = devices.selectedRow else { return }
        guard row.canSeeWeight else {
            devices.reportCannotSeeWeight(row)
            return
        }
        await openWeights(of: device)
    }

    private func openWeights(of device: Device) async {
        if weights?.device.id != device.id {
            let manifest = devices.manifest(of: device) ?? Manifest(fields: [FieldSpec(name: Field.weight, type: .double, unit: "kg")])
            weights = WeightsModel(service: service, device: device, manifest: manifest, preferred: preferredMass, clock: clock)
            weights?.rowsWanted = weightRowsWanted
        }
        devices.select(deviceID: device.id)
        go(to: .weights)
        await weights?.refresh()
    }

    private func go(to target: ScreenID) {
        if screen != target { history.append(screen) }
        screen = target
    }

    /// Esc / Backspace: the previous screen, or devices.
    public func back() {
        guard screen != .signIn, screen != .devices else { return }
        screen = history.popLast() ?? .devices
        if screen == .signIn { screen = .devices }
    }

    // MARK: Refresh and live updates

    /// R: reloads what the current screen shows.
    public func refreshCurrent() async {
        switch screen {
        case .signIn: break
        case .devices: await devices.refresh()
        case .weights: await weights?.refresh()
        case .energy: await energy.refresh()
        }
        lastChangeToken = (try? await service.changeToken()) ?? lastChangeToken
    }

    /// Whether the store changed since the last look (cheap; the local store's `data_version`).
    /// Nil when the service cannot tell (a server): poll with `refreshCurrent()` instead.
    public func storeChanged() async -> Bool? {
        guard screen != .signIn else { return false }
        guard let token = try? await service.changeToken() else { return nil }
        defer { lastChangeToken = token }
        return lastChangeToken != nil && token != lastChangeToken
    }

    public var isRefreshing: Bool {
        switch screen {
        case .signIn: signIn.isBusy
        case .devices: devices.isRefreshing
        case .weights: weights?.isRefreshing ?? false
        case .energy: energy.isRefreshing
        }
    }

    /// The current screen's problem, for the status bar.
    public var problem: String? {
        switch screen {
        case .signIn: nil   // shown in place on the form
        case .devices: devices.problem
        case .weights: weights?.problem
        case .energy: energy.problem
        }
    }

    public var lastUpdated: String? {
        let date: Date? = switch screen {
        case .signIn: nil
        case .devices: devices.lastUpdated
        case .weights: weights?.lastUpdated
        case .energy: energy.lastUpdated
        }
        return date.map { "updated \(Formats(calendar: clock.calendar).time($0))" }
    }

    // MARK: Signing out

    /// L: asks first.
    public func askSignOut() { isConfirmingSignOut = true }
    public func cancelSignOut() { isConfirmingSignOut = false }

    /// y: ends the session, forgets it, and shows the sign-in form.
    public func signOut() async {
        isConfirmingSignOut = false
        try? await service.signOut()
        sessions.clear()
        let name = user?.name
        user = nil
        weights = nil
        history = []
        await signIn.prepare()
        if let name { signIn.prefill(userName: name) }
        screen = .signIn
    }
}
