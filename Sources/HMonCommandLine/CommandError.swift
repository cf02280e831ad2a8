/// A failure of the command line itself (not of the service), printed as `hmon: <message>`, exit 1.
public struct CommandError: Error, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
