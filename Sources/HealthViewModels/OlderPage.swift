import HealthCore
import HealthModel

/// The next page back through several devices' readings shown as one list, newest first (the weights of
/// all scales, the measurements of all HRV meters): one query per device from the oldest instant loaded,
/// and the answers merged.
struct OlderPage {
    let queries: [MessageQuery]
    let pageSize: Int
    /// Nil for every reading of the devices (an HRV meter's are all measurements).
    let field: String?

    /// The page before `loaded` (newest first), from `devices`, of readings that carry `field`; nil when
    /// nothing is loaded yet.
    init?(before loaded: [Message], devices: [Device], pageSize: Int, field: String?) {
        guard let oldest = loaded.last else { return nil }
        // Readings that share the oldest instant are asked for again and dropped by id.
        let sameInstant = loaded.reversed().prefix { $0.ts == oldest.ts }.count
        queries = devices.map {
            MessageQuery(sdid: $0.id, startDate: 0, endDate: oldest.ts, order: .desc, count: pageSize + sameInstant,
                         fieldPresence: field)
        }
        self.pageSize = pageSize
        self.field = field
    }

    /// The answers to `queries`, merged: the newest `pageSize` readings not already `loaded` are the next
    /// page (the rest are asked for again next time), and whether there may be older ones still.
    func merge(_ pages: [MessagePage], loaded: [Message]) -> (older: [Message], hasOlder: Bool) {
        let known = Set(loaded.map(\.mid))
        let candidates = pages.flatMap(\.messages)
            .filter { message in !known.contains(message.mid) && (field.map { message.data[$0]?.number != nil } ?? true) }
            .sorted(by: Message.newestFirst)
        let older = Array(candidates.prefix(pageSize))
        let anyFull = zip(pages, queries).contains { $0.messages.count >= $1.count }
        return (older, !((!anyFull && candidates.count <= pageSize) || older.isEmpty))
    }
}
