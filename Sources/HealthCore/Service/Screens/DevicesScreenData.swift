import Foundation
import HealthModel

/// Everything the devices screen shows after a load: the overview, the profile's units, how many readings
/// each device sent today, and the newest readings of the selected device for the panel under the list.
public struct DevicesScreenData: Sendable, Equatable {
    public struct Ask: Sendable, Equatable {
        /// The start of today: readings from here on are counted per device.
        public var since: Date
        /// Whose newest readings the panel lists; the first device when nil or gone.
        public var recentDevice: String?
        public var recentCount: Int

        public init(since: Date, recentDevice: String?, recentCount: Int = 12) {
            self.since = since
            self.recentDevice = recentDevice
            self.recentCount = recentCount
        }
    }

    /// A device sending every minute sends 1,440 a day; past this a runaway one's count reads "20,000+" (and
    /// a remote dashboard counting a server's readings itself reads no more than this many).
    public static let todayCap = 20_000

    public var overview: DevicesOverview
    public var profile: Profile
    /// Readings since `Ask.since`, by device id; a device with none is absent.
    public var todayCounts: [String: Int]
    /// The device whose readings `recent` holds, newest first; nil without devices.
    public var recentDevice: String?
    public var recent: [Message]
    /// The user's links over the last `linkDays` (the sync doctor): whether each is silent is judged by the
    /// dashboard's clock from `lastArrival` and `made`, since a kept answer may be older than the judgement.
    public var links: [LinkHealthView]

    /// The days the links' readings are counted over.
    public static let linkDays = 7

    public init(overview: DevicesOverview, profile: Profile, todayCounts: [String: Int], recentDevice: String?,
                recent: [Message], links: [LinkHealthView] = []) {
        self.overview = overview
        self.profile = profile
        self.todayCounts = todayCounts
        self.recentDevice = recentDevice
        self.recent = recent
        self.links = links
    }
}

extension HealthService {
    /// The devices screen from the single calls.
    public func devicesScreenFromCalls(_ ask: DevicesScreenData.Ask) async throws -> DevicesScreenData {
        let overview = try await devicesOverview()
        let profile = try await profile()
        let counts = try await readingCounts(since: ask.since)
        let device = ask.recentDevice.flatMap { id in overview.devices.first { $0.id == id } } ?? overview.devices.first
        var recent: [Message] = []
        if let device { recent = try await lastMessages(device: device.id, count: ask.recentCount, field: nil) }
        // Counted to the asking dashboard's today; whether a link is silent it judges by its own clock.
        let links = try await linkHealth(days: DevicesScreenData.linkDays, now: ask.since)
        return DevicesScreenData(overview: overview, profile: profile, todayCounts: counts, recentDevice: device?.id, recent: recent,
                                 links: links)
    }
}
