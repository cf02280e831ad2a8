import HealthModel
import MCP

/// A tool call's arguments, read against the tool's schema: a wrong type, a number out of range, a day that
/// is not one or an argument the tool does not take is refused with words that name it, and the assistant
/// gets them as the tool's error (the server goes on).
struct ToolArguments: Sendable {
    let given: [String: Value]
    let schema: ArgumentSchema

    init(_ given: [String: Value]?, schema: ArgumentSchema) throws {
        self.given = given ?? [:]
        self.schema = schema
        let known = Set(schema.properties.map(\.name))
        if let unknown = self.given.keys.sorted().first(where: { !known.contains($0) }) {
            let takes = known.isEmpty ? "no arguments" : known.sorted().joined(separator: ", ")
            throw ToolRefusal("unknown argument \"\(unknown)\": this tool takes \(takes)")
        }
        for property in schema.properties { _ = try value(property) }
    }

    /// The whole number `name` names, or its default.
    func integer(_ name: String) throws -> Int {
        guard let property = property(name), case .integer(_, let fallback) = property.kind else {
            preconditionFailure("\(name) is not an integer argument of this tool")
        }
        if case .int(let n)? = try value(property) { return n }
        return fallback
    }

    /// The day `name` names, if it was given.
    func day(_ name: String) throws -> Day? {
        guard let property = property(name) else { preconditionFailure("\(name) is not an argument of this tool") }
        guard case .string(let text)? = try value(property) else { return nil }
        return Day(iso: text)
    }

    /// The word `name` names, if it was given.
    func word(_ name: String) throws -> String? {
        guard let property = property(name) else { preconditionFailure("\(name) is not an argument of this tool") }
        guard case .string(let text)? = try value(property) else { return nil }
        return text
    }

    private func property(_ name: String) -> ArgumentSchema.Property? {
        schema.properties.first { $0.name == name }
    }

    /// The argument as its schema reads it (a whole double such as 7.0 is the integer 7), nil when absent.
    private func value(_ property: ArgumentSchema.Property) throws -> Value? {
        guard let given = given[property.name], !given.isNull else { return nil }
        switch property.kind {
        case let .integer(range, _):
            let number: Int? = switch given {
            case .int(let n): n
            case .double(let d) where d.rounded() == d && abs(d) < 1e15: Int(d)
            default: nil
            }
            guard let number else { throw ToolRefusal("\(property.name) must be a whole number, got \(given)") }
            guard range.contains(number) else {
                throw ToolRefusal("\(property.name) must be \(range.lowerBound)–\(range.upperBound), got \(number)")
            }
            return .int(number)
        case .day:
            guard case .string(let text) = given, Day(iso: text) != nil else {
                throw ToolRefusal("\(property.name) must be a day as YYYY-MM-DD, got \(given)")
            }
            return given
        case .oneOf(let words):
            guard case .string(let text) = given, words.contains(text) else {
                throw ToolRefusal("\(property.name) must be one of \(words.joined(separator: ", ")), got \(given)")
            }
            return given
        }
    }
}

/// Why a tool would not answer, in words the assistant can act on ("days must be 1–3650, got 0").
struct ToolRefusal: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
