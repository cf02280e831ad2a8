import Foundation
import ModelTestSupport
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel

/// Undo on both engines: the newest add, edit or delete of a sign-in goes back, one step further each
/// time, and never another sign-in's.
@Suite struct UndoTests {
    let berlin = calendar("Europe/Berlin")

    /// alice signed in (a session of her own), with a scale.
    func signedIn(_ world: StoreWorld) async throws -> (LocalHealthService, Device) {
        _ = try await world.user("alice")
        let service = LocalHealthService(store: world.store)
        _ = try await service.signIn(name: "alice", password: "secret-pw")
        let scale = try await service.addDevice(name: "Scale", typeID: BuiltInDeviceType.withings.deviceType.id)
        return (service, scale)
    }

    func weigh(_ kg: Double, at text: String, on scale: Device, with service: LocalHealthService) async throws -> String {
        try await service.post(NewMessage(sdid: scale.id, ts: date(text, in: berlin).millisecondsSince1970,
                                          data: [Field.weight: .number(kg)]))
    }

    func sentence(_ outcome: UndoOutcome) -> String {
        outcome.sentence(in: .kg) { String(describing: Day($0, in: berlin)) }
    }

    @Test(arguments: StoreEngine.available) func undoingAnAddRemovesTheReadingAndSaysWhich(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (service, scale) = try await signedIn(world)
        _ = try await weigh(72.2, at: "2026-11-22 08:00", on: scale, with: service)
        let typo = try await weigh(27.2, at: "2026-11-23 08:10", on: scale, with: service)

        let outcome = try await service.undoLastChange()
        #expect(outcome.undone == .add)
        #expect(outcome.reading?.mid == typo)
        #expect(sentence(outcome) == "removed the weigh-in of 27.2 kg at 2026-11-23")
        await #expect(throws: HealthError.unknownReading(typo)) { try await service.reading(id: typo) }
        #expect(try await service.readings(ReadingsQuery()).map { $0.data[Field.weight] } == [.number(72.2)])
    }

    @Test(arguments: StoreEngine.available) func undoingAnEditPutsTheOldValueBack(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (service, scale) = try await signedIn(world)
        let mid = try await weigh(72.2, at: "2026-11-23 08:10", on: scale, with: service)
        let before = try await service.reading(id: mid)
        try await service.editReading(id: mid, ReadingChange(ts: date("2026-11-23 09:00", in: berlin).millisecondsSince1970,
                                                             data: [Field.weight: .number(27.2)]))

        let outcome = try await service.undoLastChange()
        #expect(sentence(outcome) == "put back 72.2 kg in the weigh-in at 2026-11-23")
        let after = try await service.reading(id: mid)
        #expect(after.ts == before.ts && after.data == before.data)
    }

    @Test(arguments: StoreEngine.available) func undoingADeleteRestoresTheReadingUnderItsOwnID(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (service, scale) = try await signedIn(world)
        let mid = try await weigh(72.2, at: "2026-11-23 08:10", on: scale, with: service)
        let before = try await service.reading(id: mid)
        try await service.deleteReading(id: mid)

        let outcome = try await service.undoLastChange()
        #expect(sentence(outcome) == "put back the deleted weigh-in of 72.2 kg at 2026-11-23")
        let back = try await service.reading(id: mid)
        #expect(back.ts == before.ts && back.data == before.data && back.sdid == before.sdid)
    }

    @Test(arguments: StoreEngine.available) func eachUndoGoesOneStepFurtherBackUntilNothingIsLeft(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (service, scale) = try await signedIn(world)
        let first = try await weigh(72.2, at: "2026-11-21 08:00", on: scale, with: service)
        let second = try await weigh(72.6, at: "2026-11-22 08:00", on: scale, with: service)
        try await service.editReading(id: first, ReadingChange(data: [Field.weight: .number(71.9)]))
        try await service.deleteReading(id: second)

        #expect(try await service.undoLastChange().undone == .delete)
        #expect(try await service.reading(id: second).data[Field.weight] == .number(72.6))
        #expect(try await service.undoLastChange().undone == .edit)
        #expect(try await service.reading(id: first).data[Field.weight] == .number(72.2))
        #expect(try await service.undoLastChange().undone == .add)
        #expect(try await service.undoLastChange().undone == .add)
        #expect(try await service.readings(ReadingsQuery()).isEmpty)
        let nothing = try await service.undoLastChange()
        #expect(nothing == .nothing)
        #expect(sentence(nothing) == "nothing to undo in this session")
    }

    @Test(arguments: StoreEngine.available) func anotherSessionsChangesAreNotUndone(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (laptop, scale) = try await signedIn(world)
        let mine = try await weigh(72.2, at: "2026-11-23 08:10", on: scale, with: laptop)
        // alice signs in again elsewhere: another session, with a journal of its own.
        let phone = LocalHealthService(store: world.store)
        let session = try await phone.signIn(name: "alice", password: "secret-pw")
        #expect(try await phone.undoLastChange() == .nothing)
        #expect(try await phone.reading(id: mine).mid == mine)
        // The same session resumed later (the command line after the dashboard) shares the journal.
        _ = try await weigh(72.4, at: "2026-11-23 09:00", on: scale, with: phone)
        let later = LocalHealthService(store: world.store)
        _ = try await later.resume(session)
        #expect(try await later.undoLastChange().reading?.data[Field.weight] == .number(72.4))
        #expect(try await later.undoLastChange() == .nothing)
        #expect(try await laptop.undoLastChange().reading?.mid == mine)
    }

    @Test(arguments: StoreEngine.available) func aChangeOvertakenElsewhereIsDroppedSayingWhy(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (laptop, scale) = try await signedIn(world)
        let first = try await weigh(72.2, at: "2026-11-22 08:00", on: scale, with: laptop)
        let typo = try await weigh(27.2, at: "2026-11-23 08:10", on: scale, with: laptop)
        let phone = LocalHealthService(store: world.store)
        _ = try await phone.signIn(name: "alice", password: "secret-pw")
        try await phone.deleteReading(id: typo)

        let outcome = try await laptop.undoLastChange()
        #expect(outcome.notPossible == "it is no longer there")
        #expect(sentence(outcome).hasPrefix("could not undo the added weigh-in at 2026-11-23: it is no longer there"))
        // The next undo reaches the change before it.
        #expect(try await laptop.undoLastChange().reading?.mid == first)
    }

    @Test(arguments: StoreEngine.available) func theJournalKeepsTheLastHundredChangesOfASession(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (service, scale) = try await signedIn(world)
        let start = date("2026-11-01 08:00", in: berlin)
        var mids: [String] = []
        for n in 0..<(UndoJournal.entriesPerSession + 5) {
            mids.append(try await service.post(NewMessage(sdid: scale.id, ts: start.addingTimeInterval(Double(n) * 60).millisecondsSince1970,
                                                          data: [Field.weight: .number(72)])))
        }
        #expect(try await world.rowCount("undo_journal") == UndoJournal.entriesPerSession)
        for _ in 0..<UndoJournal.entriesPerSession { _ = try await service.undoLastChange() }
        #expect(try await service.undoLastChange() == .nothing)
        // The five oldest adds were past the bound: they stay.
        #expect(Set(try await service.readings(ReadingsQuery()).map(\.mid)) == Set(mids.prefix(5)))
    }

    @Test func aServiceWithoutAJournalChangesNothingOnUndo() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let mid = try await service.post(NewMessage(sdid: scale.id, data: [Field.weight: .number(72)]))
        #expect(try await service.undoLastChange() == .nothing)
        #expect(try await service.reading(id: mid).mid == mid)
    }
}
