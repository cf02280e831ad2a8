import Foundation

/// Where a JSON body holds a NUL in a string, named as the API names fields (`data.comments`, `[2].value`).
///
/// JSON writes a NUL only as the escape `\u0000` (a raw one is not JSON), so a body without those six
/// bytes is passed at once; one with them is parsed and walked to the first string (key or value) that
/// holds a NUL. A body that is not JSON is left to the decoder, which names its own problem.
enum JSONNUL {
    private static let escape = Data(#"\u0000"#.utf8)

    static func field(in body: Data) -> String? {
        guard body.count >= escape.count, body.range(of: escape) != nil,
              let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return nil }
        return find(in: object, path: "")
    }

    private static func find(in value: Any, path: String) -> String? {
        switch value {
        case let text as String:
            return text.utf8.contains(0) ? (path.isEmpty ? "body" : path) : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let named = path.isEmpty ? key : path + "." + key
                if key.utf8.contains(0) { return named.replacingOccurrences(of: "\0", with: "") }
                if let found = find(in: object[key] as Any, path: named) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = find(in: element, path: path + "[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
