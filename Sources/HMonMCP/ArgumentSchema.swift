import MCP

/// The JSON schema of a tool's arguments, written once beside the reading of them (`ToolArguments`), so what
/// the schema promises and what a call is held to cannot drift apart.
struct ArgumentSchema: Sendable {
    enum Kind: Sendable {
        /// A whole number in a closed range.
        case integer(ClosedRange<Int>, default: Int)
        /// A day, `YYYY-MM-DD`.
        case day
        /// One of a fixed list of words.
        case oneOf([String])
    }

    struct Property: Sendable {
        var name: String
        var kind: Kind
        var description: String
    }

    var properties: [Property]

    init(_ properties: [Property] = []) {
        self.properties = properties
    }

    static func integer(_ name: String, _ range: ClosedRange<Int>, default value: Int, _ description: String) -> Property {
        Property(name: name, kind: .integer(range, default: value), description: description)
    }

    static func day(_ name: String, _ description: String) -> Property {
        Property(name: name, kind: .day, description: description)
    }

    static func oneOf(_ name: String, _ words: [String], _ description: String) -> Property {
        Property(name: name, kind: .oneOf(words), description: description)
    }

    /// `{"type": "object", "properties": {…}, "additionalProperties": false}`: an argument the tool does
    /// not know is refused, not ignored.
    var schema: Value {
        var described: [String: Value] = [:]
        for property in properties {
            var entry: [String: Value] = ["description": .string(property.description)]
            switch property.kind {
            case let .integer(range, value):
                entry["type"] = "integer"
                entry["minimum"] = .int(range.lowerBound)
                entry["maximum"] = .int(range.upperBound)
                entry["default"] = .int(value)
            case .day:
                entry["type"] = "string"
                entry["format"] = "date"
                entry["pattern"] = #"^\d{4}-\d{2}-\d{2}$"#
            case let .oneOf(words):
                entry["type"] = "string"
                entry["enum"] = .array(words.map { .string($0) })
            }
            described[property.name] = .object(entry)
        }
        return .object(["type": "object", "properties": .object(described), "additionalProperties": false])
    }
}
