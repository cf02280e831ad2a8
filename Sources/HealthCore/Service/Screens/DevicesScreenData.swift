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

    public init(overview: DevicesOverview, profile: Profile, todayCounts: [String: Int], recentDevice: String?,
                recent: [Message]) {
        self.overview = overview
        self.profile = profile
        self.todayCounts = todayCounts
        self.recentDevice = recentDevice
        self.recent = recent
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
        return DevicesScreenData(overview: overview, profile: profile, todayCounts: counts, recentDevice: device?.id, recent: recent)
    }
}
