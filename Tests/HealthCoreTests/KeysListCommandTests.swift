import Foundation
import Testing

/// `hmon keys --list` prints the dashboard's actions by the names config.toml's `[keys]` takes, with the keys
/// the file leaves them; a problem in `[keys]` is said with its line and the exit code is 1, so a script can
/// check a config before the dashboard starts.
@Suite(.heavy) struct KeysListCommandTests {
    typealias Home = CommandLineTests.Home

    @Test func theListShowsRemappedKeysAndAProblemExitsOne() async throws {
        let home = try Home()
        let defaults = try await home.hmon(["keys", "--list"], withDB: false)
        #expect(defaults.status == 0, "\(defaults.stderr)")
        #expect(defaults.stdout.contains("energy") && defaults.stdout.range(of: #"energy\s+3\s+energy"#, options: .regularExpression) != nil,
                "\(defaults.stdout.prefix(600))")
        #expect(defaults.stdout.contains("Weights\n") && defaults.stdout.range(of: #"toggle-unit\s+u\s+switch kg / lb"#, options: .regularExpression) != nil)

        let folder = URL(fileURLWithPath: home.environment["XDG_CONFIG_HOME"]!).appendingPathComponent("hmon")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "[keys]\nenergy = \"E\"\nquit = [\"x\", \"q\"]\nbogus = \"Z\"\n".write(to: folder.appendingPathComponent("config.toml"),
                                                                              atomically: true, encoding: .utf8)
        let remapped = try await home.hmon(["keys", "--list"], withDB: false)
        #expect(remapped.status == 1)
        #expect(remapped.stdout.range(of: #"energy\s+E\s+energy"#, options: .regularExpression) != nil, "\(remapped.stdout.prefix(600))")
        #expect(remapped.stdout.range(of: #"quit\s+x q\s+quit"#, options: .regularExpression) != nil)
        #expect(remapped.stderr.hasPrefix("hmon: config.toml:4: no action \"bogus\""), "\(remapped.stderr)")
    }
}
