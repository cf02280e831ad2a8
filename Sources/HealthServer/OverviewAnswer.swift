import Foundation
import HealthCore
import HealthModel
import SAMIContract

/// The overview screen's answer in two parts. Today's energy depends on the hour (resting energy counts
/// the part of the day gone by), so it is computed for each ask; the rest (the profile, four months of
/// weights and three months of day sums: over 50 KB of JSON and most of the screen's cost) depends only on
/// the store and is kept in `ViewAnswers` like the other screens. The two are joined as the bytes the whole
/// `HMonViews.OverviewScreenView` encodes to, keys sorted, so the answer and its ETag are the same as if it
/// had been computed in one piece.
enum OverviewAnswer {
    /// The part of `HMonViews.OverviewScreenView` that does not read the clock: every key but `energy`.
    struct Steady: Codable, Sendable {
        var profile: Profile
        var totals: HMonViews.DailyTotalsView
        var weights: HMonViews.WeightsView
    }

    static func answer(_ ask: OverviewScreenData.Ask, reader: (userID: String, service: LocalHealthService),
                       key: String, in answers: ViewAnswers) async throws -> ViewAnswers.Answer {
        let service = reader.service
        let steady: Data
        if let token = try await service.changeToken() {
            // A part, not an answer: it has no ETag of its own.
            steady = try await answers.answer(for: reader.userID + " " + key, token: token) {
                ViewAnswers.Answer(body: try encoder.encode(try await steadyPart(ask, service)), tag: "")
            }.body
        } else {
            steady = try encoder.encode(try await steadyPart(ask, service))
        }
        let energy = try encoder.encode(HMonViews.EnergyView(try await service.energySummaries(for: ask.days, now: ask.now,
                                                                                              calendar: ask.calendar)))
        return join(energy: energy, steady: steady)
    }

    /// `{"data":{"energy":…,"profile":…,"totals":…,"weights":…}}`: "energy" sorts before the steady keys.
    static func join(energy: Data, steady: Data) -> ViewAnswers.Answer {
        var body = Data(#"{"data":{"energy":"#.utf8)
        body.append(energy)
        body.append(UInt8(ascii: ","))
        body.append(steady.dropFirst())
        body.append(UInt8(ascii: "}"))
        return ViewAnswers.Answer(body: body, tag: ViewRoutes.etag(of: body))
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// What `overviewScreenFromCalls` reads besides the energy, from the same spans.
    private static func steadyPart(_ ask: OverviewScreenData.Ask, _ service: LocalHealthService) async throws -> Steady {
        let weights = try await service.weightSeries(days: ask.weightDays, calendar: ask.calendar)
        let totals = try await service.dailyTotals(days: ask.totalsDays, calendar: ask.calendar)
        return Steady(profile: try await service.profile(), totals: HMonViews.DailyTotalsView(totals), weights: HMonViews.WeightsView(weights))
    }
}
