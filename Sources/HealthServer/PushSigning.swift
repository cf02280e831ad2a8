/// Whether a push source's app can sign its posts (`X-Signature: sha256=HMAC`), which decides whether
/// `hmon link add KIND --signing-secret-file` is taken.
public enum PushSigning: Sendable, Equatable {
    /// The app signs each body with the link's signing secret; `setting` is where the secret goes in the app.
    case byTheApp(setting: String)
    /// The app cannot compute a signature: `why`, said when the option is refused. A link of such an app
    /// stands on its URL's secret alone.
    case notByTheApp(why: String)
}
