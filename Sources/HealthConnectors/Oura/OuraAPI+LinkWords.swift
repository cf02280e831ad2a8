/// How `hmon link add oura` and `hmon serve` speak of Oura.
extension OuraAPI {
    public static var linkWords: PulledLinkWords {
        PulledLinkWords(
            app: "Oura application", appPlace: "cloud.ouraring.com → My Applications",
            clientIDPlace: "cloud.ouraring.com → My Applications", callbackTitle: "Redirect URI", callback: "redirect URI",
            allowed: "daily data", allowButton: "Accept", readings: "nights", aName: "an Oura", possessive: "Oura's",
            returnName: "redirect", codeLifetime: "a few minutes", maxCodeLength: 400,
            help: "oura: your Oura ring's nights, read by `hmon serve` through your own Oura application: --client-id, the "
                + "application's secret in --client-secret-file or HMON_OURA_CLIENT_SECRET, and --base-url, as for withings. "
                + "Prints the redirect URI to register and the Oura page to open (see docs/oura.md).",
            docsPage: "docs/oura.md")
    }
}
