import Foundation
import HealthModel

/// The `next` cursor of a page: the last reading's time and id.
package struct PageCursor: Equatable {
    package var ts: Int64
    package var mid: String

    package init(ts: Int64, mid: String) {
        self.ts = ts
        self.mid = mid
    }

    package init(text: String) throws {
        let parts = text.split(separator: "_", maxSplits: 1)
        guard parts.count == 2, let ts = Int64(parts[0]) else {
            throw HealthError.invalidValue("offset \"\(text)\" is not the `next` value of a previous page")
        }
        self.init(ts: ts, mid: String(parts[1]))
    }

    package var text: String { "\(ts)_\(mid)" }
}
