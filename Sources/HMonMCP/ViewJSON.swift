import Foundation

/// The server's views as `hmon serve` writes them inside `{"data": …}`: keys sorted, no spaces.
enum ViewJSON {
    static func data<View: Encodable>(_ view: View) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(view)
    }
}
