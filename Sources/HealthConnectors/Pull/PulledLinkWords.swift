/// How a pulled source is spoken of when a person links it: the words of `hmon link add KIND`, its help and
/// its errors, and of `hmon serve`'s options. Each source states its own; `PulledLinkText` puts them in
/// their places, so every source's lines read alike.
public struct PulledLinkWords: Sendable {
    /// The person's own app at the source: "Withings developer app".
    public var app: String
    /// Where that app's settings are: "developer.withings.com → your app".
    public var appPlace: String
    /// Where its client id is, as `--client-id`'s error says: "developer.withings.com".
    public var clientIDPlace: String
    /// The address the source sends the person back to, starting a line ("Redirect URI", say),
    /// and within one ("redirect URI").
    public var callbackTitle: String
    public var callback: String
    /// What the person allows hmon to read: "measures".
    public var allowed: String
    /// The button that allows it: "Allow".
    public var allowButton: String
    /// What hmon serve reads: "weigh-ins".
    public var readings: String
    /// The source's name with an article and as an owner: "a Withings", "Withings'".
    public var aName: String
    public var possessive: String
    /// What the source sends the browser back to, as the waiting link says: "callback".
    public var returnName: String
    /// How long a code lasts: "30 seconds".
    public var codeLifetime: String
    /// The longest bare code accepted when pasted.
    public var maxCodeLength: Int
    /// The source's paragraph in `hmon link add`'s help.
    public var help: String
    /// The source's own docs page, as `hmon serve`'s help names it: "docs/withings.md".
    public var docsPage: String

    public init(app: String, appPlace: String, clientIDPlace: String, callbackTitle: String, callback: String, allowed: String,
                allowButton: String, readings: String, aName: String, possessive: String, returnName: String, codeLifetime: String,
                maxCodeLength: Int, help: String, docsPage: String) {
        self.app = app
        self.appPlace = appPlace
        self.clientIDPlace = clientIDPlace
        self.callbackTitle = callbackTitle
        self.callback = callback
        self.allowed = allowed
        self.allowButton = allowButton
        self.readings = readings
        self.aName = aName
        self.possessive = possessive
        self.returnName = returnName
        self.codeLifetime = codeLifetime
        self.maxCodeLength = maxCodeLength
        self.help = help
        self.docsPage = docsPage
    }
}
