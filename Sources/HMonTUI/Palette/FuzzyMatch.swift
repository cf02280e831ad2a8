/// How well a typed text finds a name, as command palettes match (the letters in order, not necessarily
/// together): nil when the letters are not all there in order; otherwise a score, higher for letters that
/// start words, follow each other, or start the name. Case is ignored.
enum FuzzyMatch {
    static func score(_ query: String, in candidate: String) -> Int? {
        let needle = Array(query.lowercased().filter { !$0.isWhitespace })
        guard !needle.isEmpty else { return 0 }
        let haystack = Array(candidate.lowercased())
        var score = 0, n = 0, previous = -2
        for (index, character) in haystack.enumerated() where n < needle.count && character == needle[n] {
            let startsWord = index == 0 || !haystack[index - 1].isLetter && !haystack[index - 1].isNumber
            score += 1 + (startsWord ? 8 : 0) + (index == previous + 1 ? 5 : 0) + (index == 0 ? 4 : 0)
            previous = index
            n += 1
        }
        guard n == needle.count else { return nil }
        // Of two equal matches, the shorter name is the closer one.
        return score * 100 - min(haystack.count, 99)
    }
}
