import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing

/// Issue 16, item 8: a client cannot register a redirect URI a browser would run or show instead of going
/// to (`javascript:alert(1)`), from the command line or through the store.
@Suite(.heavy) struct RedirectURITests {
    @Test(arguments: ["javascript:alert(1)", "JavaScript:alert(document.cookie)", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>",
                      "vbscript:msgbox(1)", "file:///etc/passwd", "https://example.com/cb#frag", "https:///no-host", "/relative/path",
                      "https://example.com/\ncb", "http://exa mple.com/"])
    func aDangerousOrMalformedRedirectIsRefused(_ uri: String) throws {
        #expect(throws: HealthError.self) { try RedirectURIRules.check(uri) }
    }

    @Test(arguments: ["https://example.com/cb", "http://127.0.0.1:8765/callback", "hmon://signed-in", "com.example.app:/oauth2redirect",
                      "https://example.com/cb?x=1"])
    func webAddressesAndAppSchemesAreAccepted(_ uri: String) throws {
        try RedirectURIRules.check(uri)
    }

    @Test func theStoreRefusesToRegisterAScriptRedirect() async throws {
        _ = try await ServerWorld.run { world in
            await #expect(throws: HealthError.self) {
                _ = try await world.store.createClient(name: "Evil", redirectURI: "javascript:alert(1)")
            }
        }
    }

    @Test func clientAddRefusesAJavascriptRedirectWithAClearMessage() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("client")
        defer { home.remove() }
        let folder = home.folder
        let environment = home.environment
        let database = folder.appendingPathComponent("hmon.sqlite").path
        let refused = try await ServeCommandTests.run(binary, ["client", "add", "Evil", "--db", database, "--redirect-uri", "javascript:alert(1)"],
                                                      input: "", environment: environment)
        #expect(refused.status != 0)
        #expect(refused.errors.contains(#"the redirect URI "javascript:alert(1)" uses the javascript: scheme"#), "\(refused.errors)")
        #expect(refused.output.isEmpty)
        // Control characters in the refused address are shown escaped, never sent to the terminal raw.
        let escaped = try await ServeCommandTests.run(binary, ["client", "add", "Evil", "--db", database, "--redirect-uri", "https://x/\u{1b}[2J"],
                                                      input: "", environment: environment)
        #expect(escaped.status != 0)
        #expect(!escaped.errors.contains("\u{1b}"))
        #expect(escaped.errors.contains("\\u{1b}"))

        // Only commands that create a store may create one: the account comes first.
        let owner = try await ServeCommandTests.run(binary, ["user", "add", "owner", "--db", database, "--password-stdin"],
                                                    input: "correct horse battery\n", environment: environment)
        #expect(owner.status == 0, "\(owner.errors)")
        let accepted = try await ServeCommandTests.run(binary, ["client", "add", "App", "--db", database, "--redirect-uri", "https://example.com/cb"],
                                                       input: "", environment: environment)
        #expect(accepted.status == 0, "\(accepted.errors)")
        #expect(accepted.output.contains("client id:"))
    }
}
