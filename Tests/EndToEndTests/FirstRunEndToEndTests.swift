import Foundation
import TestSupport
import Testing

/// Issue 11's first run, as a new user does it in a real terminal: an empty store, the create-account form,
/// the setup (units and body figures; a food log made), the first weigh-in (which makes the scale), an edit and a delete,
/// the first food entry, and every screen on the way. Without tmux the suite is skipped, and says so.
@Suite(.heavy, .enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux"))
struct FirstRunEndToEndTests {
    @Test func aNewUserCreatesAnAccountSetsUpAndLogsAWeighInAndAMeal() async throws {
        let tmux = try await TmuxSession.endToEnd()
        let database = tmux.folder.appendingPathComponent("mine.sqlite")
        try await tmux.type("\(builtHmon().path) --db \(database.path)", pressingEnter: true)

        // The form that makes the first account; a wrong name is said as the cursor leaves it.
        try await tmux.waitForScreen("the create-account form") { $0.contains("Create your account") && $0.contains("Repeat password") }
        try await tmux.type("ana b")
        try await tmux.press("Tab")
        try await tmux.waitForScreen("the name refused in place") { $0.contains("may hold only letters, digits") }
        try await tmux.press("BSpace", "BSpace")
        try await tmux.press("Tab", "Tab", "Tab")
        try await tmux.type("hunter22")
        try await tmux.press("Tab")
        try await tmux.type("hunter22")
        try await tmux.press("Enter")

        // The setup, over the devices screen.
        try await tmux.waitForScreen("the setup form") { $0.contains("Set up hmon") && $0.contains("Birth date") }
        try await tmux.press("Tab", "Tab")
        try await tmux.type("168")
        try await tmux.press("Tab")
        try await tmux.type("1990-02-28")
        try await tmux.press("Tab", "Right", "Tab")
        try await tmux.type("65")
        try await tmux.press("Enter")
        let devices = try await tmux.waitForScreen("the food log made by the setup") {
            !$0.contains("Set up hmon") && $0.contains("Food log")
        }
        #expect(devices.contains("ana"), "the card shows who is signed in")
        #expect(!devices.contains("Scale"), "no scale until the first weigh-in or one the person adds")

        // The first weigh-in makes the scale, and says so.
        try await tmux.type("2")
        try await tmux.waitForScreen("the empty weights screen") { $0.contains("no scale yet") }
        try await tmux.type("a")
        try await tmux.waitForScreen("the weight prompt on the new scale") { $0.contains("New weight in kg on Scale") }
        try await tmux.type("70.2")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the weigh-in in the table") { $0.contains("70.2") && !$0.contains("New weight in kg") }

        // A typo, corrected with e: the prompt holds the old value.
        try await tmux.type("e")
        try await tmux.waitForScreen("the edit prompt") { $0.contains("Weight in kg of") }
        try await tmux.press("BSpace")
        try await tmux.type("4")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the corrected weigh-in") { screen in
            // The table's rows (the chart's axis may well carry 70.2 as a label).
            let rows = screen.split(separator: "\n").filter { $0.contains(", 20") }
            return rows.contains { $0.contains("70.4") } && !rows.contains { $0.contains("70.2") } && !screen.contains("Weight in kg of")
        }

        // A second weigh-in by mistake, deleted with d after the y/n question.
        try await tmux.type("a")
        try await tmux.waitForScreen("the weight prompt again") { $0.contains("New weight in kg") }
        try await tmux.type("17.5")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the mistaken weigh-in on top") { $0.contains("17.5") && !$0.contains("New weight in kg") }
        try await tmux.type("d")
        try await tmux.waitForScreen("the delete question") { $0.contains("Delete 17.5 kg") && $0.contains("y/n") }
        try await tmux.type("y")
        try await tmux.waitForScreen("the mistake gone, the corrected weigh-in kept") { !$0.contains("17.5") && $0.contains("70.4") }

        // The first food entry, and a balance that now has every figure (profile, weight, food).
        try await tmux.type("3")
        try await tmux.waitForScreen("the energy screen") { $0.contains("Energy · Today") }
        try await tmux.type("a")
        try await tmux.waitForScreen("the energy prompt") { $0.contains("Consumed energy in kcal") }
        try await tmux.type("650")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("what was eaten, asked next") { $0.contains("What was it") }
        try await tmux.type("lentil soup")
        try await tmux.press("Enter")
        let energy = try await tmux.waitForScreen("the meal in the food log") {
            $0.contains("Lentil soup") && $0.contains("650 kcal") && $0.contains("Net") && !$0.contains("What was it")
        }
        #expect(!energy.contains("Resting energy needs your"), "the setup gave the BMR what it needs")

        // The other screens open and say what they lack, and p shows what was saved.
        try await tmux.type("4")
        try await tmux.waitForScreen("the HRV screen") { $0.contains("HRV") }
        try await tmux.type("5")
        try await tmux.waitForScreen("the insights screen") { $0.contains("Insights") }
        try await tmux.type("p")
        let profile = try await tmux.waitForScreen("the profile form with what was saved") {
            $0.contains("Your profile") && $0.contains("1990-02-28")
        }
        #expect(profile.contains("168") && profile.contains("female"))
        try await tmux.press("Escape")
        try await tmux.waitForScreen("the form closed") { !$0.contains("Your profile") }

        try await tmux.type("1")
        let back = try await tmux.waitForScreen("the devices with their last readings") { $0.contains("70.4 kg") && $0.contains("650 kcal") }
        #expect(back.contains("Scale"))
        try await tmux.type("q")
        try await tmux.waitForScreen("the shell prompt") { $0.split(separator: "\n").last?.hasPrefix("e2e$") == true }
    }
}
