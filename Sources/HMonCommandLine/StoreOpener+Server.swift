import Foundation
import HealthCore
import HealthModel
import RemoteClient

/// The remote half of `StoreOpener`: `--server URL` (or `$HMON_SERVER`) opens a `RemoteHealthService`,
/// resuming the saved session for that server when there is one and signing in otherwise.
extension StoreOpener {
    /// The server asked for, if any: `--server`, else `$HMON_SERVER`; never with `--demo`.
    public var serverAddress: String? {
        if demo { return nil }
        if let server, !server.isEmpty { return server }
        if let server = environment["HMON_SERVER"], !server.isEmpty { return server }
        return nil
    }

    /// `http://host:port` checked; a one-line error for anything else.
    public static func serverURL(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil, let url = components.url
        else { throw CommandError("--server \(text) is not a server address: use http://HOST:PORT, e.g. http://127.0.0.1:8080") }
        return url
    }

    /// Seconds a remote command waits for each answer: 10, or `$HMON_SERVER_WAIT` for a slow link or a
    /// server that checks passwords on a busy machine.
    func serverWait() throws -> TimeInterval {
        guard let text = environment["HMON_SERVER_WAIT"], !text.isEmpty else { return 10 }
        guard let seconds = NumberText.decimal(text), seconds >= 1, seconds <= 600 else {
            throw CommandError("HMON_SERVER_WAIT=\(text.debugDescription) is not a number of seconds from 1 to 600: unset it for the default of 10")
        }
        return seconds
    }

    /// The server's service, not signed in yet, and the session saved for that server if there is one:
    /// what a sign-in screen needs. Sessions the service obtains or refreshes are saved (mode 0600); one
    /// the server rejects is forgotten.
    public func remoteService(_ address: String) throws -> (service: RemoteHealthService, saved: Session?) {
        let url = try Self.serverURL(address)
        let sessions = SessionStore(paths: paths)
        let options = RemoteHealthService.Options(timeout: try serverWait())
        let service = RemoteHealthService(server: url, options: options, onSessionChange: { session in
            if let session {
                try? sessions.save(session)
            } else {
                try? sessions.delete(at: url.absoluteString.trimmingTrailingSlashes)
            }
        })
        return (service, sessions.load(at: service.location))
    }

    /// Opens the server's service for the user: the saved session when it is for this server (and this
    /// user, if `--user` names one), else a sign-in with the password from `--password-stdin` or a prompt.
    func openRemote(_ address: String) async throws -> OpenedService {
        let (service, saved) = try remoteService(address)
        // `--password-stdin` says a password is coming: it is checked by signing in, never ignored
        // in favour of the saved session.
        if let saved, !passwordStdin, user == nil || user == saved.userName {
            do {
                return OpenedService(service: service, user: try await service.resume(saved))
            } catch HealthError.sessionExpired {
                // Fall through to signing in again.
            }
        }
        guard let name = user ?? saved?.userName else {
            throw CommandError("not signed in to \(service.location): pass --user NAME (and --password-stdin to pipe the password)")
        }
        let password = passwordStdin
            ? try PasswordReader.fromStandardInput()
            : try PasswordReader.prompt("Password for \(name) at \(service.location): ")
        _ = try await service.signIn(name: name, password: password)
        return OpenedService(service: service, user: try await service.currentUser())
    }
}

private extension String {
    var trimmingTrailingSlashes: String {
        var text = self
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
