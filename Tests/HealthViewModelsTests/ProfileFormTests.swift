import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// Issue 11, first run: after the account, a short setup (units, height, birth date, sex, goal) that also
/// makes a scale and a food log; the same form is `p` at any time, locally and against a server.
@MainActor
struct ProfileFormTests {
    @Test func creatingAnAccountOpensTheSetupWhichSavesTheProfileAndMakesAFoodLogButNoScale() async throws {
        let world = try ViewModelWorld()
        let app = AppModel(service: try await world.makeService(), clock: world.clock, sessions: SessionBox().keeper)
        await app.start(savedSession: nil).complete()
        for (i, text) in ["ana", "", "", "hunter22", "hunter22"].enumerated() {
            while app.signIn.focusedIndex != i { app.signIn.focusNext() }
            for c in text { app.signIn.type(c) }
        }
        await app.submitSignIn().complete()
        #expect(app.screen == .devices)
        let form = try #require(app.profileForm, "the setup opens after the account is made")
        #expect(form.isSetup)
        #expect(form.title == "Set up hmon")

        form.choose(step: 1)  // weight unit: kg → lb
        form.focusNext()
        form.choose(step: 1)  // energy unit: kcal → kJ
        form.focusNext()
        for c in "300" { form.type(c) }
        form.focusNext()
        #expect(form.focusedIndex == 2, "a height of 300 cm keeps the cursor")
        #expect(form.problem == "height 300 cm is outside 1 ft 8 in–8 ft 11 in: type feet and inches, like 5 ft 9 in, or centimetres",
                "under pounds the range is said in feet and inches")
        form.deleteBackward(); form.deleteBackward(); form.deleteBackward()
        for c in "168" { form.type(c) }
        form.focusNext()
        for c in "1990-02-30" { form.type(c) }
        form.focusNext()
        #expect(form.problem?.hasPrefix("birth date \"1990-02-30\" is not a date") == true)
        // Typed as people type it, unpadded (issue 28, item 6: "1985-3-14" was refused).
        for _ in 0..<10 { form.deleteBackward() }
        for c in "1990-2-28" { form.type(c) }
        form.focusNext()
        form.choose(step: 1)  // sex: not set → female
        form.focusNext()
        for c in "143.3" { form.type(c) }  // lb

        await app.submitProfile { .none }.complete()
        #expect(app.profileForm == nil, "the form closes once saved")
        let service = app.service
        let profile = try await service.profile()
        #expect(profile.massUnit == .lb && profile.energyUnit == .kJ)
        #expect(profile.heightCm == 168 && profile.birthDate == Day(iso: "1990-02-28") && profile.sex == .female)
        // 143.3 lb × 0.45359237 kg/lb = 64.9997866… kg
        #expect(abs((profile.goalKg ?? 0) - 143.3 * 0.45359237) < 1e-9)
        #expect(app.preferredMass == .lb)
        let devices = try await service.devices()
        #expect(devices.map(\.name) == ["Food log"], "no scale: the first weigh-in or the scale the person adds is their one scale")
        #expect(app.devices.rows.count == 1, "the devices screen shows it")
    }

    @Test(arguments: ServiceFactory.all)
    func pEditsTheProfileAndTheGoalFollowsTheUnit(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            var stored = try await service.profile()
            stored.heightCm = 175
            stored.goalKg = 70
            try await service.updateProfile(stored)

            let form = ProfileModel(service: service, clock: world.clock, isSetup: false)
            await form.load().complete()
            #expect(form.fields.map(\.input.text) == ["kg", "kcal", "175", "", "not set", "70"])
            form.choose(step: 1)  // kg → lb: the goal keeps meaning 70 kg
            #expect(form.fields[5].input.text == "154.3", "70 kg ÷ 0.45359237 = 154.32 lb")
            #expect(form.fields[5].kind == .text(hint: "lb, optional"))
            #expect(form.fields[2].input.text == "5 ft 9 in", "the height as `profile show` says it under pounds")
            await form.submit { _ in .none }.complete()
            #expect(form.problem == nil)
            let saved = try await service.profile()
            #expect(saved.massUnit == .lb)
            #expect(abs((saved.goalKg ?? 0) - 154.3 * 0.45359237) < 1e-9)
            #expect(saved.heightCm == 175, "fields left alone stay")
            #expect(try await service.devices().isEmpty, "only the first-run setup makes devices")
        }
    }

    @Test func aGoalOutsideTheRangeIsSaidInTheUnitShown() async throws {
        let world = try ViewModelWorld()
        let service = try await world.signedIn()
        let form = ProfileModel(service: service, clock: world.clock, isSetup: false)
        await form.load().complete()
        form.choose(step: 1)  // lb
        while form.focusedIndex != 5 { form.focusNext() }
        for c in "2000" { form.type(c) }
        await form.submit { _ in .none }.complete()
        #expect(form.problem == "goal 2000 lb is outside 2–1,433 lb: check the number and its unit")
        #expect(form.focusedIndex == 5)
        #expect(try await service.profile().goalKg == nil, "nothing is saved")
    }

    @Test func underPoundsTheHeightIsInFeetAndInchesAndEitherFormIsRead() async throws {
        let world = try ViewModelWorld()
        let service = try await world.signedIn()
        var stored = try await service.profile()
        stored.massUnit = .lb
        stored.heightCm = 178
        try await service.updateProfile(stored)
        let form = ProfileModel(service: service, clock: world.clock, isSetup: false)
        await form.load().complete()
        #expect(form.fields[2].input.text == "5 ft 10 in" && form.fields[2].kind == .text(hint: "ft in, or cm"))
        await form.submit { _ in .none }.complete()
        #expect(try await service.profile().heightCm == 178, "left as shown, the stored 178 cm stays (not 177.8)")

        form.focusNext(); form.focusNext()   // to the height
        #expect(form.focusedIndex == 2)
        for _ in 0..<12 { form.deleteBackward() }
        for c in "6'1\"" { form.type(c) }
        await form.submit { _ in .none }.complete()
        #expect(form.problem == nil, "\(form.problem ?? "")")
        let typed = try #require(try await service.profile().heightCm)
        #expect(abs(typed - 73 * 2.54) < 1e-9, "6 ft 1 in is 73 in, 185.42 cm")

        for _ in 0..<12 { form.deleteBackward() }
        for c in "9 ft" { form.type(c) }
        await form.submit { _ in .none }.complete()
        #expect(form.problem == "height 9 ft is outside 1 ft 8 in–8 ft 11 in: type feet and inches, like 5 ft 9 in, or centimetres")
    }

    @Test func enterBeforeTheProfileIsReadSavesNothing() async throws {
        let world = try ViewModelWorld()
        let service = try await world.signedIn()
        var stored = try await service.profile()
        stored.heightCm = 181
        try await service.updateProfile(stored)
        let form = ProfileModel(service: service, clock: world.clock, isSetup: false)
        await form.submit { _ in .none }.complete()
        #expect(form.problem == "still reading your profile: a moment")
        #expect(try await service.profile().heightCm == 181, "the blank form did not overwrite the stored profile")
    }
}
