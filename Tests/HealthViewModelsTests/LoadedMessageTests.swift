import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import HealthViewModels
import RemoteClient

/// A load's answer is a value (`Loaded`: which request, and what came back), applied by its slot's one
/// `update`: a test builds one by hand and applies it, with no store and no server behind the model.
@MainActor
@Suite struct LoadedMessageTests {
    /// A service at an address nothing listens on: the loads here are asked for, never run.
    static func model() -> InsightsModel {
        InsightsModel(service: RemoteHealthService(server: URL(string: "http://127.0.0.1:9")!),
                      clock: Clock(calendar: Calendar(identifier: .gregorian), now: { Date(timeIntervalSince1970: 1_795_000_000) }))
    }

    @Test func aReportBuiltByHandIsAppliedAndAnOlderAnswerIsDropped() throws {
        let model = Self.model()
        let first = try #require(model.refresh().loads.first)
        let second = try #require(model.refresh().loads.first, "a refresh while one runs asks again")
        let today = Day(ordinal: 20_000)
        let report = InsightsReport.compute(totals: [:], today: today, profile: Profile(), calendar: Calendar(identifier: .gregorian))

        let stale = Loaded(tag: first.tag, generation: first.generation, outcome: .value(report), recipient: model.loads)
        #expect(stale.deliver().isEmpty)
        #expect(!model.hasLoaded, "the answer to the older request is dropped")
        #expect(model.loads.dropped == 1)

        let fresh = Loaded(tag: second.tag, generation: second.generation, outcome: .value(report), recipient: model.loads)
        #expect("\(fresh)".contains("InsightsReport"), "a message can be logged: \(fresh)")
        _ = fresh.deliver()
        #expect(model.hasLoaded)
        #expect(model.problem == nil)
        #expect(!model.isRefreshing)
        // Applied once: the same message again changes nothing and counts as dropped.
        _ = fresh.deliver()
        #expect(model.loads.dropped == 2)
    }

    @Test func aFailureIsAValueToo() throws {
        let model = Self.model()
        let load = try #require(model.refresh().loads.first)
        _ = Loaded(tag: load.tag, generation: load.generation, outcome: .failure(HealthError.notSignedIn), recipient: model.loads).deliver()
        #expect(model.problem != nil)
        #expect(!model.hasLoaded)
        #expect(!model.isRefreshing)
    }

    @Test func aValueOfTheWrongTypeIsReportedNotForced() throws {
        let model = Self.model()
        let load = try #require(model.refresh().loads.first)
        _ = Loaded(tag: load.tag, generation: load.generation, outcome: .value("not a report"), recipient: model.loads).deliver()
        #expect(model.problem != nil, "the mismatch is shown as a problem")
        #expect(!model.hasLoaded)
    }
}
