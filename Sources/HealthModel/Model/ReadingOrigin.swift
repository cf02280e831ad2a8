import Foundation

/// Where a reading came from, in people's words: what recorded it, then the way it reached hmon
/// ("Withings · Body+ · Health Connect", "openScale · anna", "Withings"). Kept in the reading's `source`
/// field where its device's manifest has one (a scale's), and shown by the Weights screen's "From" column,
/// `hmon reading list` and its `--json`: the same weigh-in arriving by two paths is then two rows a person
/// can tell apart.
public enum ReadingOrigin {
    /// The longest origin kept; a payload's names are cut to fit.
    public static let maximumLength = 80

    /// `parts` joined by " · ", each made safe for a terminal (`TextRules`), empty parts and a part equal to
    /// the one before left out, the whole cut to `maximumLength`.
    public static func text(_ parts: [String?]) -> String {
        var kept: [String] = []
        for part in parts {
            guard let part else { continue }
            let clean = TextRules.replacingUnsafe(in: part.trimmingCharacters(in: .whitespacesAndNewlines)).text
            guard !clean.isEmpty, kept.last?.caseInsensitiveCompare(clean) != .orderedSame else { continue }
            kept.append(String(clean.prefix(40)))
        }
        return String(kept.joined(separator: " · ").prefix(maximumLength))
    }

    /// The name people know an Android app by, from its package name as Health Connect gives it
    /// (`metadata.data_origin`, Life Dashboard Companion's `source`); a package not listed is named as it is.
    public static func appName(package: String) -> String {
        androidApps[package] ?? package
    }

    /// The apps that write to Health Connect most often, by package (each as its Play Store page names it).
    static let androidApps: [String: String] = [
        "com.google.android.apps.fitness": "Google Fit",
        "com.google.android.apps.healthdata": "Health Connect",
        "com.sec.android.app.shealth": "Samsung Health",
        "com.samsung.android.wear.shealth": "Samsung Health",
        "com.health.openscale": "openScale",
        "com.health.openscale.pro": "openScale",
        "com.health.openscale.light": "openScale",
        "com.withings.wiscale2": "Withings",
        "com.ouraring.oura": "Oura",
        "com.fitbit.FitbitMobile": "Fitbit",
        "com.garmin.android.apps.connectmobile": "Garmin Connect",
        "com.huami.watch.hmwatchmanager": "Zepp",
        "com.xiaomi.wearable": "Mi Fitness",
        "nodomain.freeyourgadget.gadgetbridge": "Gadgetbridge",
        "fi.polar.polarflow": "Polar Flow",
        "com.whoop.android": "WHOOP",
        "com.myfitnesspal.android": "MyFitnessPal",
        "com.cronometer.android.gold": "Cronometer",
        "com.strava": "Strava",
        "com.eufylife.smarthome": "eufy Life",
        "com.qingniu.renpho": "Renpho",
    ]
}
