import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon undo`: undoes the newest add, edit or delete of a reading made in this session, and says what it
/// undid; again, and it goes one step further back. Nothing left is a failure (exit 1), so a script can
/// undo everything with `while hmon undo; do :; done`.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo your last add, edit or delete of a reading (again to go further back).",
        discussion: """
            A session is a sign-in: the dashboard's, which the command line uses too, or a server's with --server. \
            Without one (--user, --demo, a store's only account) the command line's changes share one session of \
            their own. Up to the last 100 changes of a session can be undone. An undo is not itself undone.
            """)

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readWrite)
        let outcome = try await opened.service.undoLastChange()
        guard outcome.undone != nil else {
            throw CommandError("nothing to undo in this session: only changes made with the same sign-in (or, without one, "
                               + "with --user on this store) are undone; see `hmon reading list` to correct others by hand")
        }
        let units = QuantityText(try await opened.service.profile())
        let sentence = outcome.sentence(in: units) { LocalTime.format($0, calendar: .current) }
        if outcome.notPossible != nil { throw CommandError(sentence) }
        printEscaped(sentence)
    }
}
