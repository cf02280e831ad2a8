import Foundation
import HealthModel

/// A stored reading with its `data` left as the JSON text the store keeps. The server's hottest call
/// (`GET /v1.1/messages/last`, the dashboard's refresh) writes these straight into the answer instead of
/// decoding every reading's data and encoding it again.
public struct StoredMessageJSON: Sendable, Equatable {
    public var mid: String
    public var sdid: String
    public var sdtid: String
    public var uid: String
    public var ts: Int64
    public var cts: Int64
    public var mv: Int
    /// The reading's data object as stored (valid JSON: the table checks it).
    public var dataJSON: String

    package init(mid: String, sdid: String, sdtid: String, uid: String, ts: Int64, cts: Int64, mv: Int, dataJSON: String) {
        self.mid = mid
        self.sdid = sdid
        self.sdtid = sdtid
        self.uid = uid
        self.ts = ts
        self.cts = cts
        self.mv = mv
        self.dataJSON = dataJSON
    }
}
