import Foundation
import HealthModel

/// One reading taken from a Health Connect payload, before it is stored.
public struct HealthConnectReading: Sendable, Equatable {
    public var kind: ReadingKind
    /// What names it across batches, the source of its id (`HealthConnectArrival.mid`): the record's own
    /// `uuid`; for a record without one (HC Webhook's), its array, times and writing app; `day:KIND:DATE`
    /// for a figure kept once a day; a bucket's window and content.
    public var key: String
    /// When it was taken, ms since the epoch (a day's figure: the start of that day).
    public var timestamp: Int64
    /// In hmon's unit, as the store's rules keep it.
    public var value: Double
    /// What was eaten: a nutrition record's name and meal.
    public var comment: String?
    /// A record of a kind `daily_totals` may later cover (steps, active energy): the day it counts toward,
    /// which its id starts with, so that day's total can take it back (`HealthConnectArrival`).
    public var countsToward: Day? = nil
    /// A `daily_totals` figure: the day it is the total of.
    public var totalOf: Day? = nil
    /// Figures kept beside the value in the same reading, by field: a night's stages beside its time asleep.
    public var extras: [String: Double] = [:]
    /// Text kept beside the value in the same reading, by field: a night's stages against the clock.
    public var texts: [String: String] = [:]
    /// What recorded it and how it came, in people's words ("Withings · Health Connect"), kept as the reading's
    /// `source` where its device has that field (`ReadingOrigin`).
    public var origin: String = "Health Connect"
    /// A bucketed mean's `sample_count`, for a kind whose device keeps it (HRV): its window is one reading,
    /// and a late part of it is merged in weighted by this.
    public var samples: Double? = nil
    /// The record as the payload names it (`weight[2] (uuid …)`), for a refusal at the door.
    public var record: String = ""
}

/// Which Android app sent a payload: both post Health Connect's records, each in its own shape.
public enum HealthConnectApp: String, Sendable, Encodable {
    /// `owen282000/life-dashboard-companion-app`: `source: "health_connect"`, a `uuid` on every record,
    /// `daily_totals`, bucketed series.
    case lifeDashboardCompanion = "life-dashboard-companion"
    /// `mcnaveen/health-connect-webhook`: no `source`, no `uuid`, a `metadata.data_origin` per record.
    case hcWebhook = "hc-webhook"
}

/// Records of an array hmon does not keep.
public struct SkippedRecords: Sendable, Equatable, Encodable {
    public var records: Int
    public var why: String
}

/// A body that is not a Health Connect payload at all; nothing of it is kept.
public struct HealthConnectPayloadError: Error, Sendable, Equatable {
    public var problem: String
}
