import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon hrv link [--base-url URL] [--revoke]`: the link that asks Welltory to measure and send the
/// results to `hmon serve`, under a secret made for the user (a new one each time; the old one stops).
struct HRVLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Print the Welltory measurement link (or revoke it).")

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("base-url"),
            help: ArgumentHelp("hmon serve's address as the phone reaches it (its --public-url, or the machine's "
                               + "address on your network, e.g. http://192.168.1.20:8080).", valueName: "url"))
    var baseURL: String?

    @Flag(help: "Accept a --base-url on this machine itself (127.0.0.1, localhost): to try the link from this machine.")
    var allowLoopback = false

    @Flag(help: "Revoke the user's link: Welltory's results are refused from then on.")
    var revoke = false

    func validate() throws {
        if revoke { return }
        guard let baseURL else {
            throw ValidationError("--base-url is required: the address your phone reaches hmon serve at, e.g. "
                                  + "--base-url http://192.168.1.20:8080 (or the server's --public-url)")
        }
        guard let url = URL(string: baseURL), ["http", "https"].contains(url.scheme ?? ""), let host = url.host, !host.isEmpty else {
            throw ValidationError("--base-url must be an http or https address, such as http://192.168.1.20:8080")
        }
        if !allowLoopback, Self.isThisMachineOnly(host) {
            throw ValidationError("--base-url \(baseURL) names this machine to itself: a phone opening it reaches the phone, "
                                  + "not hmon serve. Pass the address the phone reaches the server at (e.g. http://192.168.1.20:8080), "
                                  + "or --allow-loopback to try the link on this machine")
        }
    }

    /// Hosts that mean "this very machine" wherever they are opened: the phone's own loopback, not the server.
    static func isThisMachineOnly(_ host: String) -> Bool {
        let bare = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare.hasPrefix("127.") || bare == "::1"
            || bare == "0.0.0.0" || bare == "::"
    }

    func run() async throws {
        let opener = StoreOpener(store)
        if opener.serverAddress != nil {
            throw CommandError("the Welltory link is made on the store `hmon serve` serves: run it there, without --server")
        }
        let local = try await opener.openStore(.readWrite)
        let user = try await opener.actingUser(on: LocalHealthService(store: local))
        if revoke {
            let had = try await local.revokeWelltoryLink(userID: user.id)
            printEscaped(HRVText.revoked(user: user.name, hadLink: had))
            return
        }
        let secret = try await local.createWelltoryLink(userID: user.id)
        guard let baseURL else { throw ValidationError("--base-url is required") }  // validate() made sure
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        printEscaped(HRVText.link(user: user.name, request: WelltoryLinks.measurementRequest(callback: base + "/welltory/" + secret),
                           server: base))
    }
}
