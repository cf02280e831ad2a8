/// How the command line's help joins a list of names: "a, b and c".
enum Wording {
    static func list(_ items: [String], and word: String = "and") -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + items[items.count - 1]
    }
}
