/// A failure of the command line itself (not of the service), printed as `hmon: <message>`, exit 1.
struct CommandError: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
