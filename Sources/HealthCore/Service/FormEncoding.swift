import Foundation
import HealthModel

/// `application/x-www-form-urlencoded`, both ways.
package enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    package static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    package static func encode(_ pairs: [(String, String)]) -> Data {
        Data(pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&").utf8)
    }

    /// Parses `a=1&b=2` (a query, a fragment or a form body); `+` is a space; later keys win.
    package static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func clean(_ s: Substring) -> String {
                String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            result[clean(parts[0])] = parts.count > 1 ? clean(parts[1]) : ""
        }
        return result
    }
}
