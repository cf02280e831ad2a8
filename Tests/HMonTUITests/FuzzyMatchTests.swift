@testable import HMonTUI
import Testing

/// The palette's matching, by hand-worked cases: letters in order, word starts and runs first.
struct FuzzyMatchTests {
    @Test func lettersMustAllBeThereInOrder() {
        #expect(FuzzyMatch.score("ener", in: "Energy") != nil)
        #expect(FuzzyMatch.score("egy", in: "Energy") != nil)
        #expect(FuzzyMatch.score("yge", in: "Energy") == nil)
        #expect(FuzzyMatch.score("x", in: "Energy") == nil)
        #expect(FuzzyMatch.score("", in: "Energy") == 0)
    }

    @Test func aWordStartAndARunBeatScatteredLetters() throws {
        // "so" starts both of "sign out"'s words; in "show or hide" its o is inside a word.
        let signOut = try #require(FuzzyMatch.score("so", in: "sign out"))
        let scattered = try #require(FuzzyMatch.score("so", in: "show or hide this help"))
        #expect(signOut > scattered)
        let prefix = try #require(FuzzyMatch.score("we", in: "Weights"))
        let inside = try #require(FuzzyMatch.score("we", in: "newest weigh-in"))
        #expect(prefix > inside)
    }
}
