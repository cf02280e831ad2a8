import Foundation
@testable import HMonTUI
import HealthViewModels
import HealthCore
import HealthModel
import SQLiteStorage
import Terminal
import Testing

@MainActor
struct KeyTableTests {
    @Test(arguments: ScreenRegistry.tabs.map(\.id.rawValue) + [ScreenID.signIn.rawValue])
    func theHelpOverlayListsEveryBindingThatApplies(screen: String) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard(signedIn: screen != ScreenID.signIn.rawValue)
        // 44 rows: with eight tabs the Weights screen's keys and the global ones take 43 rows of the overlay.
        if screen != ScreenID.signIn.rawValue { _ = await dashboard.snapshot(of: screen, size: Size(width: 120, height: 44)) }
        #expect(dashboard.app.screen.rawValue == screen)
        _ = dashboard.perform(.help)
        let text = frame(of: dashboard, size: Size(width: 120, height: 44))
        for binding in dashboard.activeTable {
            #expect(text.contains(binding.help), "help for \(binding.action) is listed")
            #expect(text.contains(binding.keyNames), "keys \(binding.keyNames) are listed")
        }
    }

    /// Issue 28, item 7: at 80×24 the overlay wraps a long help text under itself instead of cutting it
    /// ("older reading (past t…"): every word of every binding's help is on the screen, and no row of the
    /// overlay ends in an ellipsis. A table screen's keys (with `/`, `t`, Ctrl-D and Ctrl-U) take two pages
    /// there: every page is read.
    @Test(arguments: ScreenRegistry.tabs.map(\.id.rawValue))
    func theHelpOverlayWrapsInsteadOfCuttingAt80x24(screen: String) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.snapshot(of: screen, size: Size(width: 80, height: 24))
        _ = dashboard.perform(.help)
        let pages = HelpOverlay(sections: dashboard.helpSections).pages(in: Rect(x: 0, y: 0, width: 80, height: 24))
        var words: Set<String> = []
        for page in 0..<pages {
            if page > 0 { _ = await dashboard.press(.down) }
            let lines = frame(of: dashboard, size: Size(width: 80, height: 24)).components(separatedBy: "\n").map { Array($0) }
            // The overlay's box: from its top-left corner to the bottom-left one below it, cut to its width.
            let title = pages == 1 ? "┌─ Keys · type to filter" : "┌─ Keys · \(page + 1) of \(pages)"
            let top = try #require(lines.firstIndex { String($0).contains(title) })
            let left = try #require(lines[top].firstIndex(of: "┌"))
            // Its own corner: the first after its left one (a screen's panel may end in one further right).
            let right = try #require(lines[top][left...].firstIndex(of: "┐"))
            let bottom = try #require(lines.indices.first { $0 > top && lines[$0].indices.contains(left) && lines[$0][left] == "└" })
            let overlay = lines[(top + 1)..<bottom].map { String($0[(left + 1)..<right]) }
            #expect(!overlay.contains { $0.contains("…") }, "\(overlay.joined(separator: "\n"))")
            words.formUnion(overlay.flatMap { $0.split(separator: " ").map(String.init) })
        }
        for binding in dashboard.activeTable {
            for word in binding.help.split(separator: " ") {
                #expect(words.contains(String(word)), "\(word) of \"\(binding.help)\" on \(screen)")
            }
        }
    }

    @Test(arguments: ScreenRegistry.tabs.map(\.id.rawValue))
    func noKeyIsBoundTwiceOnAScreen(screen: String) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.snapshot(of: screen, size: Size(width: 80, height: 24))
        let keys = dashboard.activeTable.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
    }

    @Test func everyRegisteredScreenHasATabANumberKeyAndAPlaceInTabOrder() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let bar = frame(of: dashboard, size: Size(width: 120, height: 40)).split(separator: "\n")[0]
        for (i, entry) in ScreenRegistry.tabs.enumerated() {
            let title = try #require(dashboard.screens.first { $0.id == entry.id }?.title)
            #expect(bar.contains("\(i + 1) \(title)"), "the tab bar names \(entry.id)")
        }
        // Tab visits them in registry order and comes back round; each number key reaches its screen.
        var visited: [ScreenID] = [dashboard.app.screen]
        for _ in ScreenRegistry.tabs.indices {
            _ = await dashboard.press(.tab)
            visited.append(dashboard.app.screen)
        }
        #expect(visited == ScreenRegistry.tabs.map(\.id) + [ScreenRegistry.tabs[0].id])
        for (i, entry) in ScreenRegistry.tabs.enumerated().reversed() {
            _ = await dashboard.press(.char(Character(String(i + 1))))
            #expect(dashboard.app.screen == entry.id)
        }
    }

    @Test func aKeyFoundInTheHelpDoesWhatTheHelpSays() async throws {
        // The help is read from the frame, not from the table: "u  switch kg / lb" on the weights screen must
        // switch the unit, and "→  next day" on energy must move the day.
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        _ = dashboard.perform(.help)
        let help = frame(of: dashboard, size: Size(width: 120, height: 40))
        #expect(help.contains("u                switch kg / lb") || help.range(of: #"u\s+switch kg / lb"#, options: .regularExpression) != nil)
        _ = dashboard.handle(.escape)   // closes the help
        let before = try #require(dashboard.weights?.unit)
        _ = await dashboard.press(.char("u"))
        #expect(dashboard.weights?.unit == before.toggled)

        _ = await dashboard.press(.char("3"))
        let day = try #require(dashboard.energy?.day)
        _ = await dashboard.press(.left)
        #expect(dashboard.energy?.day == day.adding(days: -1))
        #expect(dashboard.energy?.shownDay == day.adding(days: -1), "the figures are the new day's")
    }

    @Test func numberKeysTabAndEscapeMoveBetweenScreens() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        #expect(dashboard.app.screen == .devices)

        _ = await dashboard.press(.char("2"))
        #expect(dashboard.app.screen == .weights)
        #expect(dashboard.weights?.device.name == "Bathroom scale")

        _ = await dashboard.press(.tab)
        #expect(dashboard.app.screen == .energy)

        _ = await dashboard.press(.backTab)
        #expect(dashboard.app.screen == .weights)

        _ = dashboard.handle(.escape)
        #expect(dashboard.app.screen == .energy, "Esc goes back to where we came from")
        _ = await dashboard.press(.char("1"))
        #expect(dashboard.app.screen == .devices)
        #expect(dashboard.handle(.char("q")) == .quit)
        #expect(dashboard.handle(.ctrl("c")) == .quit)
    }

    @Test func enterOnADeviceWithoutWeightsSaysWhyAndTabStillFindsTheScale() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let watch = try #require(dashboard.app.devices.rows.first { $0.name == "Watch" })
        dashboard.app.devices.select(deviceID: watch.id)
        _ = await dashboard.press(.enter)
        #expect(dashboard.app.screen == .devices)
        #expect(dashboard.current.problem == "Watch: Activity Tracker readings carry no weight")
        _ = await dashboard.press(.tab)
        #expect(dashboard.app.screen == .weights)
        #expect(dashboard.weights?.device.name == "Bathroom scale", "Tab opens the scale even when another device is selected")
    }

    @Test func typingOnTheSignInFormFillsItAndQDoesNotQuit() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard(signedIn: false)
        for key in "demo".map(Key.char) { #expect(dashboard.handle(key) == .keepGoing) }
        _ = dashboard.handle(.tab)
        for key in "quit".map(Key.char) { #expect(dashboard.handle(key) == .keepGoing) }
        #expect(dashboard.app.signIn.fields.map(\.text) == ["demo", "quit"])
        let text = frame(of: dashboard, size: Size(width: 80, height: 24))
        #expect(text.contains("demo"))
        #expect(text.contains("••••"))
        #expect(!text.contains("quit▏"), "the password never shows")

        _ = await dashboard.press(.enter)
        #expect(frame(of: dashboard, size: Size(width: 80, height: 24)).contains("wrong user name or password"))
    }

    @Test func addingAReadingFromTheKeyboardPutsItOnTop() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        _ = dashboard.handle(.char("a"))
        for key in "68.4".map(Key.char) { _ = dashboard.handle(key) }
        #expect(frame(of: dashboard, size: Size(width: 80, height: 24)).contains("New weight in kg on Bathroom scale: 68.4"), "the prompt says where the weigh-in goes")
        _ = await dashboard.press(.enter)
        let rows = dashboard.weights?.rows ?? []
        #expect(rows.first?.weight == "68.4")
        #expect(rows.first?.isNew == true)
        let text = frame(of: dashboard, size: Size(width: 80, height: 24))
        #expect(text.contains("Fri Nov 20, 2026  18:00    68.4"))
    }

    /// Issue 28, item 6: Ctrl-W and Ctrl-U in a field, as readline has them (the text is typed at its end).
    @Test func ctrlWDeletesAWordAndCtrlUClearsThePrompt() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("3"))
        _ = dashboard.handle(.char("a"))
        for key in "450".map(Key.char) { _ = dashboard.handle(key) }
        _ = dashboard.handle(.enter)   // the amount; now what it was
        for key in "oat porridge".map(Key.char) { _ = dashboard.handle(key) }
        _ = dashboard.handle(.ctrl("w"))
        #expect(dashboard.energy?.prompt?.text == "oat ")
        _ = dashboard.handle(.ctrl("u"))
        #expect(dashboard.energy?.prompt?.text == "")
        _ = dashboard.handle(.escape)
        // The same keys in the sign-in form's fields, and listed in the prompt's help.
        #expect(KeyMap.prompt.contains { $0.action == .clearField && $0.keys == [.ctrl("u")] })
        #expect(KeyMap.signIn.contains { $0.action == .deleteWord && $0.keys == [.ctrl("w")] })
    }
}

/// Readline's word deletion on a field's text.
@Suite struct TextFieldEditTests {
    @Test func ctrlWTakesTheWordBeforeTheEndAndTheSpacesAfterIt() {
        var field = TextField(label: "x", text: "oat  porridge  ")
        field.apply(.deleteWord)
        #expect(field.text == "oat  ")
        field.apply(.deleteWord)
        #expect(field.text == "")
        field.apply(.deleteWord)
        #expect(field.text == "", "nothing left to delete")
        field = TextField(label: "x", text: "72.4")
        field.apply(.clear)
        #expect(field.text.isEmpty)
    }
}

/// Issue 28, item 6: a cursor inside the text, as readline has it: ←/→, Home/End (Ctrl-A/Ctrl-E), typing
/// and deleting at the cursor, Ctrl-U taking what is before it.
@Suite struct TextFieldCursorTests {
    @Test func typingAndDeletingHappenAtTheCursor() {
        var field = TextField(label: "x", text: "7.4")
        field.apply(.left)
        field.apply(.left)
        field.insert("2")
        #expect(field.text == "72.4" && field.cursor == 2)
        field.apply(.home)
        field.apply(.deleteForward)
        #expect(field.text == "2.4" && field.cursor == 0)
        field.apply(.deleteBackward)
        #expect(field.text == "2.4", "nothing before the start")
        field.apply(.end)
        field.apply(.right)
        #expect(field.cursor == 3, "the end is as far as it goes")
    }

    @Test func ctrlUAndCtrlWTakeOnlyWhatIsBeforeTheCursor() {
        var field = TextField(label: "x", text: "lentil soup bread")
        for _ in 0..<6 { field.apply(.left) }
        field.apply(.deleteWord)
        #expect(field.text == "lentil  bread" && field.cursor == 7, "the word before the cursor, not the last word")
        field.apply(.clear)
        #expect(field.text == " bread" && field.cursor == 0)
    }

    @Test func theWindowKeepsTheCursorInViewAndMarksWhatIsCut() {
        let text = "abcdefghijklmnopqrstuvwxyz"
        // At the end: the tail, the cursor after it.
        #expect(DisplayWidth.typingWindow(text, cursor: 26, in: 10) == ("…stuvwxyz", 9))
        // Near the start: from the start, cut at the end.
        #expect(DisplayWidth.typingWindow(text, cursor: 2, in: 10) == ("abcdefghi…", 2))
        // In the middle: the characters before the cursor, the one under it, and "…" either side.
        #expect(DisplayWidth.typingWindow(text, cursor: 15, in: 10) == ("…ijklmnop…", 8))
        // Wide characters are never split.
        let (shown, column) = DisplayWidth.typingWindow("日本語のテキスト", cursor: 5, in: 8)
        #expect(DisplayWidth.of(shown) <= 8 && shown.hasPrefix("…") && column == DisplayWidth.of(String(shown.prefix(while: { $0 != "キ" }))))
    }
}

/// The cursor keys on a real prompt: a weigh-in of 7.4 fixed to 72.4 without retyping it.
@MainActor
struct PromptCursorTests {
    @Test func homeAndArrowsFixATypoInThePrompt() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("a"))
        for key in "7.4" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.home)
        _ = await dashboard.press(.right)
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.end)
        _ = await dashboard.press(.char("5"))
        #expect(dashboard.helpSections.flatMap(\.bindings).contains { $0.action == .lineStart && $0.keyNames == "Home Ctrl-A" })
        let prompt = try #require(frame(of: dashboard, size: Size(width: 80, height: 24)).split(separator: "\n").first { $0.contains("New weight in kg") })
        #expect(prompt.contains("72.45"), "\(prompt)")
    }
}

/// Issue 28, item 6: a prompt takes a time after the number ("72.4 yesterday 7:10"), refuses one still
/// ahead, and a correction may move the reading's time.
@MainActor
struct PromptTimeTests {
    @Test func aWeighInForYesterdayMorning() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("a"))
        for key in "69.9 yesterday 7:10" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let expected = try #require(world.clock.calendar.date(from: DateComponents(year: 2026, month: 11, day: 19, hour: 7, minute: 10)))
        let stored = try await world.store.readings(ReadingsQuery(field: Field.weight), userID: user.id)
        #expect(stored.contains { $0.ts == expected.millisecondsSince1970 && $0.data[Field.weight] == .number(69.9) })
        #expect(frame(of: dashboard, size: Size(width: 120, height: 40)).contains("Thu Nov 19, 2026  07:10"))
    }

    @Test func aTimeStillAheadIsRefusedAndNothingIsSaved() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("a"))
        for key in "69.9 23:30" { _ = await dashboard.press(.char(key)) }   // the world's now is 18:00
        _ = await dashboard.press(.enter)
        let shown = frame(of: dashboard, size: Size(width: 120, height: 40))
        #expect(shown.contains("23:30 is still ahead"), "\(shown)")
        #expect(shown.contains("New weight in kg"), "the prompt stays open to fix it")
        _ = await dashboard.press(.ctrl("u"))
        for key in "69.9 yester" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        #expect(frame(of: dashboard, size: Size(width: 120, height: 40)).contains("\"yester\" is not a time"))
    }

    @Test func aMealForTheDayShownAtLunch() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("3"))
        _ = await dashboard.press(.left)
        _ = await dashboard.press(.left)   // Wednesday
        _ = await dashboard.press(.char("a"))
        for key in "480 13:05" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        _ = await dashboard.press(.enter)   // no description
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let lunch = try #require(world.clock.calendar.date(from: DateComponents(year: 2026, month: 11, day: 18, hour: 13, minute: 5)))
        let stored = try await world.store.readings(ReadingsQuery(field: Field.calories), userID: user.id)
        #expect(stored.contains { $0.ts == lunch.millisecondsSince1970 && $0.data[Field.calories] == .number(480) })
    }
}

/// Issue 28, item 7: at 60×16 the help for a screen does not fit at once; it comes in pages that ↓ turns
/// ("Keys · 1 of 3"), and every word of every binding's help is on one of them: nothing is cut.
@MainActor
struct HelpPagesTests {
    @Test(arguments: ScreenRegistry.tabs.map(\.id.rawValue))
    func everyKeyIsOnSomePageAt60x16(screen: String) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 60, height: 16)
        _ = await dashboard.snapshot(of: screen, size: size)
        _ = dashboard.perform(.help)
        var words: Set<String> = []
        var pages = 0
        while pages < 10 {
            let text = frame(of: dashboard, size: size)
            pages += 1
            words.formUnion(text.split(whereSeparator: { $0 == " " || $0 == "│" || $0 == "\n" }).map(String.init))
            guard let counter = text.firstMatch(of: /Keys · (\d+) of (\d+)/), counter.output.1 != counter.output.2 else { break }
            _ = dashboard.handle(.down)
            #expect(dashboard.ui.showsHelp, "↓ turns the page rather than closing the help")
        }
        for binding in dashboard.activeTable {
            for word in binding.help.split(separator: " ") {
                #expect(words.contains(String(word)), "\(word) of \"\(binding.help)\" on \(screen) at 60×16 (\(pages) pages)")
            }
        }
        _ = dashboard.handle(.escape)
        #expect(!dashboard.ui.showsHelp, "Esc closes it")
    }
}

/// A combining mark typed after a letter joins it (one character, "é"): the cursor stays inside the text,
/// and Backspace takes the joined character (found by the key fuzzer as "String index is out of bounds").
@Suite struct TextFieldCombiningMarkTests {
    @Test func aCombiningMarkJoinsTheLetterBeforeTheCursor() {
        var field = TextField(label: "x")
        field.insert("e")
        field.insert("\u{301}")
        #expect(field.text == "é" && field.cursor == 1)
        field.deleteBackward()
        #expect(field.text.isEmpty && field.cursor == 0)
        field.insert("a")
        field.apply(.home)
        field.insert("\u{301}")   // a lone mark at the start is a character of its own
        #expect(field.cursor <= field.text.count)
        field.apply(.end)
        field.deleteBackward()
        field.deleteBackward()
        field.deleteBackward()
        #expect(field.text.isEmpty)
    }
}
