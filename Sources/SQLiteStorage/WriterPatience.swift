import Foundation
import GRDB
import Synchronization
import CheckedNumbers
import HealthCore
import HealthModel

/// How long a connection waits for another one's write lock before giving up with
/// `HealthError.storeBusy`, and whom it tells that it is waiting.
///
/// An import holds the write lock for the whole file (all or nothing), which for a large export is
/// tens of seconds. The server keeps the short wait (`.standard`) and answers "busy, try again"; the
/// command line waits much longer and says why it is quiet (`StoreOpener`), so `hmon add weight`
/// during an import is late, not lost.
public struct WriterPatience: Sendable {
    /// The longest wait, in seconds.
    public var limit: TimeInterval
    /// Called once, after `noticeAfter` seconds of waiting, with a line saying what it waits for.
    public var notice: (@Sendable (String) -> Void)?
    public var noticeAfter: TimeInterval

    public init(limit: TimeInterval, noticeAfter: TimeInterval = 1, notice: (@Sendable (String) -> Void)? = nil) {
        self.limit = limit
        self.noticeAfter = noticeAfter
        self.notice = notice
    }

    /// Ten seconds, silently: for the server and for tests.
    public static let standard = WriterPatience(limit: 10)

    /// SQLite's busy handler: sleeps a little more each try (1, 2, 5, 10, then 20 ms) and stops once the
    /// sleeps add up to `limit`. `numberOfTries` starts at 0 for each statement that waits.
    func busyMode(path: String) -> Database.BusyMode {
        let limit = self.limit
        let noticeAfter = self.noticeAfter
        let notice = self.notice
        let once = Once()
        return .callback { tries in
            let waited = Self.waited(beforeTry: tries)
            guard waited < limit else { return false }
            if let notice, waited >= noticeAfter, once.isFirst() {
                notice("waiting for another hmon writing to \(path) (an import can take a minute)…")
            }
            usleep(UInt32(rounding: Self.sleep(beforeTry: tries) * 1_000_000))
            return true
        }
    }

    private static let steps: [TimeInterval] = [0.001, 0.002, 0.005, 0.010]

    static func sleep(beforeTry tries: Int) -> TimeInterval {
        tries < steps.count ? steps[tries] : 0.020
    }

    /// Seconds slept before try `tries`.
    static func waited(beforeTry tries: Int) -> TimeInterval {
        if tries <= steps.count { return steps.prefix(tries).reduce(0, +) }
        return steps.reduce(0, +) + Double(tries - steps.count) * 0.020
    }
}

/// True the first time it is asked, from whichever thread.
private final class Once: Sendable {
    private let asked = Mutex(false)

    func isFirst() -> Bool {
        asked.withLock { asked in
            defer { asked = true }
            return !asked
        }
    }
}
