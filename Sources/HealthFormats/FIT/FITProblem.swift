/// Why a FIT file cannot be read, and at which byte: the decoder keeps nothing of such a file.
struct FITProblem: Error, Equatable, CustomStringConvertible {
    var offset: Int
    var message: String

    var description: String { "at byte \(offset): \(message)" }
}
