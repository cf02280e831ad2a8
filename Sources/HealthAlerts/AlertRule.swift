import Foundation

/// One alert a server watches for (`[[alerts]]` in config.toml): what it watches, whose data, and where it
/// says so. Read-only over the store: an alert never writes a reading.
public struct AlertRule: Sendable, Equatable {
    /// What the rule watches, with its own figures.
    public enum Condition: Sendable, Equatable {
        /// The 7-day mean of ln RMSSD below the 60-day normal range on each of the last `days` days that
        /// have a measurement (the method of the HRV screen's colours, docs/methods.md).
        case hrvBelowNormal(days: Int)
        /// A link of the person's (or the one named) without an arrival for `hours`.
        case linkSilent(hours: Double, link: String?)
        /// The weight trend has reached the profile's goal from the side it started on.
        case weightGoalReached
        /// The day's resting heart rate above the mean of the 30 days before it by `bpm`, on each of the
        /// last `days` days that have one.
        case restingHeartRateAbove(bpm: Double, days: Int)
    }

    /// Where a firing is sent.
    public enum Destination: Sendable, Equatable {
        /// An ntfy topic URL (`https://ntfy.sh/TOPIC` or a self-hosted one), with ntfy's priority name.
        case ntfy(URL, priority: String)
        /// Any URL taking a JSON body; with a secret, each body is signed as the push links are
        /// (`X-Signature: sha256=<hex of HMAC-SHA256>`).
        case webhook(URL, secret: String?)

        /// Where it goes, without the path: an ntfy topic is as good as a password to whoever reads it.
        public var shownPlace: String {
            switch self {
            case .ntfy(let url, _): "ntfy at \(url.host ?? "?")"
            case .webhook(let url, let secret): "webhook at \(url.host ?? "?")" + (secret == nil ? "" : " (signed)")
            }
        }
    }

    public var name: String
    public var condition: Condition
    /// Whose data; nil for the store's only user.
    public var user: String?
    public var destination: Destination

    public init(name: String, condition: Condition, user: String? = nil, destination: Destination) {
        self.name = name
        self.condition = condition
        self.user = user
        self.destination = destination
    }

    /// The rule's name for `when =` in config.toml.
    public var when: String {
        switch condition {
        case .hrvBelowNormal: "hrv-below-normal"
        case .linkSilent: "link-silent"
        case .weightGoalReached: "weight-goal"
        case .restingHeartRateAbove: "resting-heart-rate-high"
        }
    }
}

/// What a rule found when its condition holds: the words a person reads on the phone.
public struct AlertFinding: Sendable, Equatable {
    public var title: String
    public var message: String
    /// ntfy's tags (emoji short codes shown before the title).
    public var tags: [String]

    public init(title: String, message: String, tags: [String]) {
        self.title = title
        self.message = message
        self.tags = tags
    }
}
