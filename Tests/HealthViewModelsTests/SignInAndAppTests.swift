import Foundation
import Synchronization
import HealthCore
import Testing
@testable import HealthViewModels

@MainActor
struct SignInAndAppTests {
    @Test(arguments: [ServiceFactory.local, .remote])
    func aWrongPasswordIsSaidInPlaceAndThePasswordCleared(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            _ = try await world.signedIn("alice", password: "secret-pw")
            let model = SignInModel(service: try await world.makeService())
            await model.prepare()
            #expect(model.mode == .signIn)

            for c in "alice" { model.type(c) }
            model.focusNext()
            for c in "guess" { model.type(c) }
            #expect(model.fields[1].displayText == "•••••", "the password is masked")

            let session = await model.submit()
            #expect(session == nil)
            #expect(model.problem == "wrong user name or password")
            #expect(model.fields[1].text.isEmpty)
            #expect(model.focusedIndex == 1)

            for c in "secret-pw" { model.type(c) }
            let signedIn = await model.submit()
            #expect(signedIn?.userName == "alice")
            #expect(model.problem == nil)
        }
    }


    @Test(arguments: [ServiceFactory.local, .remote])
    func enterOnTheNameMovesToThePassword(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            _ = try await world.signedIn("alice")
            let model = SignInModel(service: try await world.makeService())
            await model.prepare()
            for c in "alice" { model.type(c) }
            let session = await model.submit()
            #expect(session == nil)
            #expect(model.focusedIndex == 1)
            #expect(model.problem == nil, "moving on is not an error")
        }
    }

    // Local only: a server always has accounts; they are created next to it, not through the client.
    @Test func anEmptyStoreOffersToCreateTheFirstAccount() async throws {
        let world = try ViewModelWorld()
        let service = try await world.makeService()
        let saved = SessionBox()
        let app = AppModel(service: service, clock: world.clock, sessions: saved.keeper)
        await app.start(savedSession: nil)
        #expect(app.screen == .signIn)
        #expect(app.signIn.mode == .createAccount)
        #expect(app.signIn.fields.map(\.label) == ["User name", "Full name", "Email", "Password", "Repeat password"])

        for (i, text) in ["bob", "Bob Builder", "bob@example.com", "hunter22", "hunter2"].enumerated() {
            while app.signIn.focusedIndex != i { app.signIn.focusNext() }
            for c in text { app.signIn.type(c) }
        }
        await app.submitSignIn()
        #expect(app.signIn.problem == "the two passwords differ: type them again")
        #expect(app.screen == .signIn)

        for c in "hunter22" { app.signIn.type(c) }
        app.signIn.focusNext()
        for c in "hunter22" { app.signIn.type(c) }
        await app.submitSignIn()
        #expect(app.screen == .devices)
        #expect(app.user?.name == "bob")
        #expect(saved.session?.userName == "bob", "the session is kept for the next launch")
    }

    @Test(arguments: [ServiceFactory.local, .remote])
    func aSavedSessionSkipsSignInAndSignOutForgetsIt(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let first = try await world.makeService()
            try await world.createAccount(NewAccount(name: "alice", password: "secret-pw"))
            let session = try await first.signIn(name: "alice", password: "secret-pw")

            let saved = SessionBox()
            let app = AppModel(service: try await world.makeService(), clock: world.clock, sessions: saved.keeper)
            await app.start(savedSession: session)
            #expect(app.screen == .devices)
            #expect(app.signedInAs == "alice")

            app.askSignOut()
            #expect(app.isConfirmingSignOut)
            await app.signOut()
            #expect(app.screen == .signIn)
            #expect(saved.cleared)
            #expect(app.signIn.fields[0].text == "alice", "the name is kept for the next sign-in")
        }
    }

    @Test(arguments: [ServiceFactory.local, .remote])
    func tabMovesBetweenDevicesWeightsAndEnergyAndEscGoesBack(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            _ = try await world.device("Activity Tracker", named: "Watch", on: service)
            let scale = try await world.device("Withings Device", named: "Scale", on: service)
            try await world.weigh(70, at: "2026-11-20 07:00", device: scale, on: service)
            let app = AppModel(service: service, clock: world.clock)
            await app.start(savedSession: nil)
            #expect(app.screen == .signIn, "no saved session: sign in first")

            // Signed in through the same service, the dashboard opens on devices.
            app.signIn.prefill(userName: "alice")
            for c in "secret-pw" { app.signIn.type(c) }
            await app.submitSignIn()
            #expect(app.screen == .devices)

            // Enter on the watch does not open weights; it says why.
            app.devices.select(deviceID: app.devices.rows.first { $0.name == "Watch" }!.id)
            await app.openSelectedDevice()
            #expect(app.screen == .devices)
            #expect(app.problem == "Watch: Activity Tracker readings carry no weight")

            await app.cycle(forward: true)
            #expect(app.screen == .weights)
            #expect(app.weights?.device.name == "Scale", "Tab opens the scale even when another device is selected")
            await app.cycle(forward: true)
            #expect(app.screen == .energy)
            await app.cycle(forward: true)
            #expect(app.screen == .devices)
            await app.cycle(forward: false)
            #expect(app.screen == .energy)
            app.back()
            #expect(app.screen == .devices)
        }
    }

    // Local only: the cheap change check reads the SQLite file; a remote client has no change token.
    @Test func aChangeFromAnotherConnectionIsNoticedCheaply() async throws {
        let world = try ViewModelWorld()
        let service = try await world.signedIn()
        let scale = try await world.device("Withings Device", named: "Scale", on: service)
        let app = AppModel(service: service, clock: world.clock)
        app.signIn.prefill(userName: "alice")
        for c in "secret-pw" { app.signIn.type(c) }
        await app.submitSignIn()
        await app.openSelectedDevice()
        #expect(app.screen == .weights)
        #expect(await app.storeChanged() == false)

        let other = try await world.signedIn()
        try await world.weigh(69.9, at: "2026-11-20 17:59", device: scale, on: other)
        #expect(await app.storeChanged() == true)
        await app.refreshCurrent()
        #expect(app.weights?.rows.first?.weight == "69.9")
        #expect(await app.storeChanged() == false)
    }
}

/// Remembers what the app asked to save or clear, in place of the session file.
final class SessionBox: Sendable {
    private let state = Mutex<(session: Session?, cleared: Bool)>((nil, false))

    var session: Session? { state.withLock { $0.session } }
    var cleared: Bool { state.withLock { $0.cleared } }

    var keeper: SessionKeeper {
        SessionKeeper(save: { session in self.state.withLock { $0.session = session } },
                      clear: { self.state.withLock { $0 = (nil, true) } })
    }
}
