import Foundation
import HealthCore
import HealthModel

/// Why a file could not be imported, with where in the file: `export.xml:1234:56: unterminated attribute value`.
///
/// Any `ImportError` stops the import of that file and nothing of it is kept.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file's name as the person gave it (last path component).
    public var file: String
    /// 1-based line, when the problem is at a place in the text.
    public var line: Int?
    /// 1-based column in characters, when known.
    public var column: Int?
    public var problem: String

    public init(file: String, line: Int? = nil, column: Int? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): \(problem)"
    }

    public var errorDescription: String? { description }
}

/// A problem found while reading, before the file name and position are attached.
struct ParseProblem: Error {
    var message: String
    /// Byte offset in the scanner's current buffer, when the problem is at a place.
    var offset: Int?

    init(_ message: String, at offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }
}
