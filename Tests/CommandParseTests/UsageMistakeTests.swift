import Testing
@testable import hmon

/// The usage mistakes people make, each answered in process with the one line hmon prints after "hmon: "
/// and exit 2: what is wrong, and what to type instead. The spawned tests keep a few of these to show the
/// process prints the line and exits 2; the rest live here, without a process each.
@Suite struct UsageMistakeTests {
    @Test func launchMistakesSayWhatToTypeInstead() {
        let cases: [([String], String)] = [
            (["snapshot", "--bogus"], "unknown option '--bogus'"),
            (["snapshot", "help"], "unexpected argument 'help'"),
            (["snapshot", "--screen", "nope"],
             "there is no screen \"nope\": pass one of signin, devices, weights, energy, hrv, insights, overview, sleep, vitals, help"),
            (["snapshot", "--size", "0x0"], "the value '0x0' is invalid for '--size <size>'"),
            (["--bogus"], "unknown option '--bogus'"),
            (["--demo", "--server", "http://127.0.0.1:1"], "--demo opens the local demo store: leave out --server"),
            (["dashboard", "--refresh", "0"], "--refresh must be at least 1 second, like --refresh 30"),
        ]
        expect(cases)
    }

    @Test func eachCommandsOwnRulesAreOneLine() {
        let cases: [([String], String)] = [
            (["add", "energy"], "pass one of --consumed AMOUNT or --active AMOUNT"),
            (["add", "energy", "--active", "300", "--comment", "toast"], "--comment goes with --consumed"),
            (["add", "hrv"], "pass figures (--rmssd, --stress …), or --from-url URL, or --rr FILE: one of the three"),
            (["reading", "edit", "abc"], "nothing to change: pass --value, --at or both"),
            (["reading", "edit", "abc", "--at", "07:00", "--unit", "lb"], "--field and --unit go with --value"),
            (["profile", "set", "--height", "170 cm", "--height-cm", "170"], "pass one of --height and --height-cm"),
            (["profile", "set", "--height", "tall"], "the value 'tall' is invalid for '--height <height>': not a height: pass it with its unit, like \"5 ft 7 in\" or 170 cm"),
            (["profile", "set", "--goal-kg", "70", "--no-goal"], "pass one of --goal-kg, --goal-lb and --no-goal"),
            (["import", "file.csv", "--quiet", "--json"], "--quiet prints nothing and --json prints the summary: choose one"),
            (["token", "add"], "personal tokens are read-only: pass --read-only (an app that writes signs in through /authorize)"),
            (["insights", "--days", "1"], "--days must be 2–3650"),
            (["trend", "--days", "0"], "--days must be at least 1"),
            (["sleep", "--days", "0"], "--days must be 1–366"),
            (["reading", "list", "--limit", "0"], "--limit 0 is not a positive number"),
            (["exist", "push", "--to", "ftp://exist.io"], "--to ftp://exist.io is not a server address: pass one like https://exist.io or http://127.0.0.1:8080"),
            (["exist", "push", "--to", "https://exist.io", "--since", "2025-02-30"], "--since 2025-02-30 is not a date: pass YYYY-MM-DD"),
            (["serve", "--port", "70000"], "--port 70000 is not a port: use 1–65535 (0 for any free port)"),
            (["serve", "--max-connections", "0"], "--max-connections 0 is not a count from 1 to 1000000 (e.g. --max-connections 2000)"),
            (["serve", "--exist-token-days", "0"], "--exist-token-days 0 is not a number of days from 1 to 3650 (e.g. --exist-token-days 30)"),
            (["serve", "--withings-poll-minutes", "0"],
             "--withings-poll-minutes 0 is not a number of minutes from 1 to 1440 (e.g. --withings-poll-minutes 15)"),
            (["serve", "--oura-poll-minutes", "2000"],
             "--oura-poll-minutes 2000 is not a number of minutes from 1 to 1440 (e.g. --oura-poll-minutes 60)"),
            (["serve", "--trusted-proxy", "nowhere"],
             "--trusted-proxy nowhere is not an address or a network (e.g. --trusted-proxy 127.0.0.1 or 10.0.0.0/8)"),
            (["sources", "--days", "0"], "--days 0 is outside 1–90: pass --days 7, for example"),
            (["link", "add", "health-connect", "--openscale-user", "2"], "--openscale-user is for `hmon link add openscale`"),
            (["link", "add", "openscale", "--openscale-user=-1"], "--openscale-user must be openScale's userId, a whole number from 0"),
            (["link", "add", "withings"], "withings needs --client-id: your Withings developer app's client id (developer.withings.com)"),
            (["link", "add", "oura"], "oura needs --client-id: your Oura application's client id (cloud.ouraring.com → My Applications)"),
            (["link", "add", "oura", "--client-id", "has space"], "--client-id holds spaces or characters an Oura client id cannot have: copy it again"),
            (["link", "add", "health-connect", "--base-url", "ftp://x"], "--base-url must be an http or https address, such as http://192.168.1.20:8080"),
        ]
        expect(cases)
    }

    @Test func numbersThatAreNotPlainDecimalsAreRefusedInOneShortLine() {
        let numbers = ["nan", "inf", "1e309", String(repeating: "9", count: 100_000), "0x40", "0x1p6"]
        for number in numbers {
            for arguments in [["add", "weight", number], ["add", "energy", "--active", number], ["profile", "set", "--height-cm", number],
                              ["add", "hrv", "--rmssd", number]] {
                let said = HMon.parse(arguments).mistake ?? "accepted"
                #expect(said.contains("not a plain number"), "\(arguments.joined(separator: " ").prefix(60)): \(said.prefix(200))")
                #expect(!said.contains("\n") && said.count < 400, "the message repeats the whole argument: \(said.prefix(100))")
            }
        }
    }

    private func expect(_ cases: [([String], String)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (arguments, message) in cases {
            let said = HMon.parse(arguments).mistake
            #expect(said == message + " (see --help)", "\(arguments)", sourceLocation: sourceLocation)
        }
    }
}
