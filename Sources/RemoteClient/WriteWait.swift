import Foundation
import Synchronization

/// A write the server put off (429 over its limit, 503 busy) while it waits out `Retry-After`: the prompt
/// stays open with what was typed, and the status bar says why and when it is sent again.
final class WriteWait: Sendable {
    private let waiting = Mutex<String?>(nil)

    var notice: String? { waiting.withLock { $0 } }

    func begin(_ notice: String) { waiting.withLock { $0 = notice } }

    func end() { waiting.withLock { $0 = nil } }

    /// "127.0.0.1:8080 is limiting requests (429): saving again at 19:42:05"
    static func notice(server: String, status: Int, retryAt: Date) -> String {
        let why = status == 429 ? "is limiting requests" : "is busy"
        let time = retryAt.formatted(Date.FormatStyle(date: .omitted, time: .standard))
        return "\(server) \(why) (\(status)): saving again at \(time)"
    }
}
