/// Reads a `text/event-stream` as its bytes arrive, in chunks cut anywhere (the WHATWG rules hmon's change
/// feed needs): lines end with LF, CRLF or CR; `event:` names the event, `data:` lines are joined with
/// newlines, a blank line dispatches, a line starting with `:` is a comment (a heartbeat). An event
/// without a name is a `message`.
struct ServerSentEvents {
    struct Event: Equatable, Sendable {
        var name: String
        var data: String
    }

    /// The most one line may hold: the feed's are a few dozen bytes; a stream that is not one is cut off.
    static let maxLineBytes = 64 * 1024

    private var line: [UInt8] = []
    private var lastWasCR = false
    private var name = ""
    private var data: [String] = []

    /// The events completed by `bytes`, in order.
    mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws -> [Event] where Bytes.Element == UInt8 {
        var events: [Event] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") && lastWasCR {
                lastWasCR = false
                continue
            }
            lastWasCR = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let event = endLine() { events.append(event) }
            } else {
                guard line.count < Self.maxLineBytes else { throw LineTooLong() }
                line.append(byte)
            }
        }
        return events
    }

    struct LineTooLong: Error {}

    private mutating func endLine() -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            defer { name = ""; data = [] }
            guard !data.isEmpty || !name.isEmpty else { return nil }
            return Event(name: name.isEmpty ? "message" : name, data: data.joined(separator: "\n"))
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": name = String(value)
        case "data": data.append(String(value))
        default: break
        }
        return nil
    }
}
