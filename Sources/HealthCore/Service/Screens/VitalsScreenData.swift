import Foundation
import HealthModel

/// Everything the Vitals screen shows after a load: the newest readings of the vital signs, the devices'
/// names to say where each came from, and the profile (a temperature is written in the person's units).
public struct VitalsScreenData: Sendable, Equatable {
    public struct Ask: Sendable, Equatable {
        /// The most readings of each vital sign.
        public var latestCount: Int

        public init(latestCount: Int) {
            self.latestCount = latestCount
        }
    }

    /// The readings of each sign a screen asks for: more than a year of a watch's nightly figures.
    public static let defaultCount = 400

    /// The newest `Ask.latestCount` readings of each vital sign, newest first, each once (a reading that
    /// carries two signs is one reading).
    public var readings: [Message]
    /// Device names by device id, for the readings' devices.
    public var deviceNames: [String: String]
    public var profile: Profile

    public init(readings: [Message], deviceNames: [String: String], profile: Profile) {
        self.readings = readings
        self.deviceNames = deviceNames
        self.profile = profile
    }
}

extension HealthService {
    /// The Vitals screen from the single calls: one query a vital sign's field.
    public func vitalsScreenFromCalls(_ ask: VitalsScreenData.Ask) async throws -> VitalsScreenData {
        var byID: [String: Message] = [:]
        for field in VitalSign.fields {
            for reading in try await readings(ReadingsQuery(field: field, order: .desc, limit: ask.latestCount)) {
                byID[reading.mid] = reading
            }
        }
        let readings = byID.values.sorted(by: Message.newestFirst)
        let shown = Set(readings.map(\.sdid))
        let names = try await devices().filter { shown.contains($0.id) }.map { ($0.id, $0.name) }
        return VitalsScreenData(readings: readings, deviceNames: Dictionary(names, uniquingKeysWith: { first, _ in first }),
                                profile: try await profile())
    }
}
