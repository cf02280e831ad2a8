import Foundation
import HealthCore
import HealthModel

/// One password sign-in as the server runs it everywhere a name and password arrive (the OAuth2 form,
/// Exist's simple-token route): failures throttled per account, checks per address capped, the slow hash
/// run on the password pool, never on the threads that answer requests.
struct PasswordSignIn: Sendable {
    let store: any AccountStore
    let passwords: PasswordCheckPool
    let throttle: SignInThrottle
    let checksPerAddress: PasswordChecksPerAddress
    let clock: @Sendable () -> Date

    enum Outcome {
        case signedIn(User)
        case wrongPassword
        /// Too many failures for this account lately: try again after `seconds`.
        case throttled(seconds: Int)
        /// Too many checks from this address at once, or the pool is full: try again in a moment.
        case busy(why: String)
    }

    func check(name: String, password: String, from address: String) async throws -> Outcome {
        let account = SignInThrottle.key(account: name)
        // Decided before this attempt counts: a clean address and account go to the pool's first line.
        let line: PasswordCheckPool.Line = checksPerAddress.failedLately(address, now: clock())
            || throttle.hasFailures(account) ? .later : .first
        if case .wait(let seconds) = throttle.begin(account, now: clock()) { return .throttled(seconds: seconds) }
        var succeeded: Bool?
        defer { throttle.finish(account, succeeded: succeeded, now: clock()) }
        guard checksPerAddress.enter(address) else { return .busy(why: "Too many sign-ins from your address at once") }
        defer { checksPerAddress.leave(address) }
        do {
            let passwords = self.passwords
            let user = try await store.authenticate(name: name, password: password,
                                                    runningCheckOn: { check in try await passwords.run(check, line: line) })
            succeeded = true
            return .signedIn(user)
        } catch HealthError.wrongPassword {
            succeeded = false
            checksPerAddress.noteFailure(address, now: clock())
            return .wrongPassword
        } catch is PasswordCheckPool.Full {
            return .busy(why: "The server is busy checking other sign-ins")
        }
    }
}
