import Foundation
import Synchronization
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

@MainActor
struct SignInAndAppTests {
    @Test(arguments: ServiceFactory.all)
    func aWrongPasswordIsSaidInPlaceAndThePasswordCleared(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            _ = try await world.signedIn("alice", password: "secret-pw")
            let model = SignInModel(service: try await world.makeService())
            await model.prepare().complete()
            #expect(model.mode == .signIn)

            for c in "alice" { model.type(c) }
            model.focusNext()
            for c in "guess" { model.type(c) }
            #expect(model.fields[1].displayText == "•••••", "the password is masked")

            let session = await submit(model)
            #expect(session == nil)
            #expect(model.problem == "wrong user name or password")
            #expect(model.fields[1].text.isEmpty)
            #expect(model.focusedIndex == 1)

            for c in "secret-pw" { model.type(c) }
            let signedIn = await submit(model)
            #expect(signedIn?.userName == "alice")
            #expect(model.problem == nil)
        }
    }


    /// A person types while the store is still asked whether it has accounts (seconds on a busy PostgreSQL):
    /// the answer, when it comes, leaves what they typed and where they are.
    @Test(arguments: ServiceFactory.all)
    func keysTypedBeforeTheStoreAnswersKeepTheirPlace(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            _ = try await world.signedIn("alice", password: "secret-pw")
            let model = SignInModel(service: try await world.makeService())
            let asking = model.prepare()
            for c in "alice" { model.type(c) }
            model.focusNext()
            for c in "secret-pw" { model.type(c) }
            await asking.complete()
            #expect(model.mode == .signIn)
            #expect(model.fields[0].text == "alice")
            #expect(model.fields[1].text == "secret-pw", "the answer moved no key to another field")
            #expect(model.focusedIndex == 1)
            #expect(await submit(model)?.userName == "alice")
        }
    }

    @Test(arguments: ServiceFactory.all)
    func enterOnTheNameMovesToThePassword(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            _ = try await world.signedIn("alice")
            let model = SignInModel(service: try await world.makeService())
            await model.prepare().complete()
            for c in "alice" { model.type(c) }
            let session = await submit(model)
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
        await app.start(savedSession: nil).complete()
        #expect(app.screen == .signIn)
        #expect(app.signIn.mode == .createAccount)
        #expect(app.signIn.fields.map(\.label) == ["User name", "Full name", "Email", "Password", "Repeat password"])

        for (i, text) in ["bob", "Bob Builder", "bob@example.com", "hunter22", "hunter2"].enumerated() {
            while app.signIn.focusedIndex != i { app.signIn.focusNext() }
            for c in text { app.signIn.type(c) }
        }
        await app.submitSignIn().complete()
        #expect(app.signIn.problem == "the two passwords differ: type the repeat again")
        #expect(app.screen == .signIn)
        #expect(app.signIn.focusedIndex == 4, "the cursor is on the field that is wrong")
        #expect(app.signIn.fields[3].text == "hunter22", "the password that was fine is kept")
        #expect(app.signIn.fields[4].text.isEmpty)

        for c in "hunter22" { app.signIn.type(c) }
        await app.submitSignIn().complete()
        #expect(app.screen == .devices)
        #expect(app.user?.name == "bob")
        #expect(saved.session?.userName == "bob", "the session is kept for the next launch")
    }

    /// Issue 11: each field is checked as the person leaves it, by the store's own rules; the cursor stays on
    /// a wrong one and what was typed right is kept.
    @Test func theCreateAccountFormChecksEachFieldOnLeavingIt() async throws {
        let world = try ViewModelWorld()
        let service = try await world.makeService()
        let app = AppModel(service: service, clock: world.clock, sessions: SessionBox().keeper)
        await app.start(savedSession: nil).complete()
        let form = app.signIn
        #expect(form.mode == .createAccount)

        for c in "bo b!" { form.type(c) }
        form.focusNext()
        #expect(form.focusedIndex == 0, "a wrong user name keeps the cursor")
        #expect(form.problem?.contains("may hold only letters, digits") == true)
        form.deleteBackward(); form.deleteBackward(); form.deleteBackward()
        form.type("b")
        form.focusNext()
        #expect(form.focusedIndex == 1 && form.problem == nil, "a fixed name lets the cursor move on")

        form.focusNext()  // the full name is optional: empty is fine
        for c in "bob.example.com" { form.type(c) }
        form.focusNext()
        #expect(form.focusedIndex == 2)
        #expect(form.problem?.contains("is not an email address") == true)
        form.focusPrevious()
        #expect(form.focusedIndex == 2, "Shift-Tab checks the field too")

        for _ in 0..<"bob.example.com".count { form.deleteBackward() }
        form.focusNext()
        for c in "abc" { form.type(c) }
        form.focusNext()
        #expect(form.focusedIndex == 3)
        #expect(form.problem?.contains("shorter than 4 characters") == true)
        #expect(form.fields[0].text == "bob", "earlier fields are kept")
    }

    @Test func aTakenNameOnTheCreateFormKeepsThePasswordsAndMovesToTheName() async throws {
        let world = try ViewModelWorld()
        let service = try await world.makeService()
        let app = AppModel(service: service, clock: world.clock, sessions: SessionBox().keeper)
        await app.start(savedSession: nil).complete()
        #expect(app.signIn.mode == .createAccount)
        // Someone else made "bob" in the meantime (another terminal).
        _ = try await world.createAccount(NewAccount(name: "bob", password: "other-pw"))
        for (i, text) in ["bob", "", "", "hunter22", "hunter22"].enumerated() {
            while app.signIn.focusedIndex != i { app.signIn.focusNext() }
            for c in text { app.signIn.type(c) }
        }
        await app.submitSignIn().complete()
        #expect(app.screen == .signIn)
        #expect(app.signIn.problem == "the user name \"bob\" is taken: choose another")
        #expect(app.signIn.focusedIndex == 0)
        #expect(app.signIn.fields[3].text == "hunter22" && app.signIn.fields[4].text == "hunter22")
    }

    @Test(arguments: ServiceFactory.all)
    func aSavedSessionSkipsSignInAndSignOutForgetsIt(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let first = try await world.makeService()
            try await world.createAccount(NewAccount(name: "alice", password: "secret-pw"))
            let session = try await first.signIn(name: "alice", password: "secret-pw")

            let saved = SessionBox()
            let app = AppModel(service: try await world.makeService(), clock: world.clock, sessions: saved.keeper)
            await app.start(savedSession: session).complete()
            #expect(app.screen == .devices)
            #expect(app.signedInAs == "alice")

            app.askSignOut()
            #expect(app.isConfirmingSignOut)
            await app.signOut().complete()
            #expect(app.screen == .signIn)
            #expect(saved.cleared)
            #expect(app.signIn.fields[0].text == "alice", "the name is kept for the next sign-in")
        }
    }

    @Test func aSessionFileThatCannotBeDeletedIsSaidOnTheSignInForm() async throws {
        let world = try ViewModelWorld()
        let service = try await world.signedIn()
        let undeletable = SessionKeeper(save: { _ in }, clear: {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "/home/alice/.config/hmon/session.json"])
        })
        let app = AppModel(service: service, clock: world.clock, sessions: undeletable)
        await app.startSignedIn().complete()
        await app.signOut().complete()
        #expect(app.screen == .signIn)
        let problem = try #require(app.signIn.problem)
        #expect(problem.hasPrefix("signed out, but the saved session could not be deleted"))
        #expect(problem.contains("delete it by hand"))
    }

    @Test func aSessionThatCannotBeSavedIsSaidAfterSignIn() async throws {
        let world = try ViewModelWorld()
        _ = try await world.signedIn()
        let unsavable = SessionKeeper(save: { _ in throw CocoaError(.fileWriteOutOfSpace) }, clear: {})
        let app = AppModel(service: try await world.makeService(), clock: world.clock, sessions: unsavable)
        await app.start(savedSession: nil).complete()
        app.signIn.prefill(userName: "alice")
        for c in "secret-pw" { app.signIn.type(c) }
        await app.submitSignIn().complete()
        #expect(app.screen == .devices)
        #expect(app.problem?.hasPrefix("signed in, but the session could not be saved for next time") == true)
    }

    /// Checks the form and returns the session it produced, if any.
    private func submit(_ model: SignInModel) async -> Session? {
        var session: Session?
        await model.submit { session = $0; return .none }.complete()
        return session
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
