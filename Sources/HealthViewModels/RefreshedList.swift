import HealthCore
import HealthModel

/// A refresh of a list the person may have scrolled far back through (weigh-ins, HRV measurements): the
/// newest rows are asked for again, as many as are loaded, up to what one screen call may list. Rows older
/// than that stay as they were loaded, so R never loses the place nor asks for more than the server takes.
struct RefreshedList {
    /// How many of the newest rows are asked for.
    let asked: Int

    init(loaded: Int, wanted: Int, limit: Int) {
        asked = min(max(wanted, loaded), limit)
    }

    /// The fresh newest rows, then the loaded ones older than all of them; and whether older rows may still
    /// be paged in. Both lists are newest first.
    func merge(fresh: [Message], loaded: [Message], hadOlder: Bool) -> (rows: [Message], hasOlder: Bool) {
        guard fresh.count >= asked, let oldestFresh = fresh.last else { return (fresh, false) }
        let kept = loaded.filter { Message.newestFirst(oldestFresh, $0) }
        return (fresh + kept, kept.isEmpty || hadOlder)
    }
}
