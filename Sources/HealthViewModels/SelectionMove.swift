/// A list's selection moved by `delta` rows (negative: toward the newest), kept within the list; a key that
/// cannot move it says which end it is at, so the screen can say why rather than do nothing.
struct SelectionMove {
    enum End { case newest, oldest }

    let index: Int
    /// The end the selection was already at when the move could not go further; nil when it moved (or asked none).
    let stoppedAt: End?

    init(from index: Int, by delta: Int, count: Int) {
        let wanted = min(max(index + delta, 0), max(0, count - 1))
        self.index = wanted
        stoppedAt = wanted == index && delta != 0 ? (delta < 0 ? .newest : .oldest) : nil
    }
}
