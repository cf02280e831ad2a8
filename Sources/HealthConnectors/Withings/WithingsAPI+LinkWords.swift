/// How `hmon link add withings` and `hmon serve` speak of Withings.
extension WithingsAPI {
    public static var linkWords: PulledLinkWords {
        PulledLinkWords(
            app: "Withings developer app", appPlace: "developer.withings.com → your app", clientIDPlace: "developer.withings.com",
            callbackTitle: "callback URL", callback: "callback URL", allowed: "measures", allowButton: "Allow", readings: "weigh-ins",
            aName: "a Withings", possessive: "Withings'", returnName: "callback", codeLifetime: "30 seconds", maxCodeLength: 200,
            help: "withings: your Withings account's scale, read by `hmon serve` through your own Withings developer app: "
                + "--client-id, the app's secret in --client-secret-file or HMON_WITHINGS_CLIENT_SECRET, and --base-url, "
                + "hmon serve's address as your browser and Withings reach it. Prints the callback URL to register in the app "
                + "and the Withings page to open; the authorization ends on hmon serve, or paste the address your browser was "
                + "sent to (see docs/withings.md).",
            docsPage: "docs/withings.md")
    }

    /// A Withings account is its user id.
    public static func account(of tokens: WithingsTokens) -> String { "Withings user \(tokens.userid)" }
}
