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
            help: ArgumentHelp("hmon serve's address as the phone reaches it.", valueName: "url"))
    var baseURL: String = "http://127.0.0.1:8080"

    @Flag(help: "Revoke the user's link: Welltory's results are refused from then on.")
    var revoke = false

    func validate() throws {
        guard let url = URL(string: baseURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--base-url must be an http or https address, such as http://192.168.1.20:8080")
        }
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
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        printEscaped(HRVText.link(user: user.name, request: WelltoryLinks.measurementRequest(callback: base + "/welltory/" + secret),
                           server: base))
    }
}
