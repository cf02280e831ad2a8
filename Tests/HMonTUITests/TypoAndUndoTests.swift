import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage
import HealthServer
import RemoteClient

/// On Weights a weight far from the trend asks before it is saved (n: back to the prompt, y: saved), and
/// U undoes the last add, edit or delete, saying what it undid.
@MainActor
struct TypoAndUndoTests {
    let size = Size(width: 120, height: 40)

    func weights() async throws -> (DemoWorld, Dashboard, WeightsModel, User) {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        return (world, dashboard, try #require(dashboard.weights), user)
    }

    @Test func aTypoAnsweredNoStoresNothingAnsweredYesStoresItAndCtrlZRemovesIt() async throws {
        let (world, dashboard, weights, user) = try await weights()
        let count = try await world.store.messageCount(userID: user.id)
        let trend = try #require(weights.summary.first?.text)

        _ = await dashboard.press(.char("a"))
        await dashboard.type("27.2")
        _ = await dashboard.press(.enter)
        let question = try #require(weights.farFromTrend?.question)
        #expect(question.hasPrefix("27.2 kg is "), "\(question)")
        #expect(question.contains(" under your trend (") && question.hasSuffix(" kg) — save? y/n"), "\(question)")
        #expect(frame(of: dashboard, size: size).contains(question))
        #expect(dashboard.helpSections.first?.title == "A weight far from your trend")

        _ = await dashboard.press(.char("n"))
        #expect(weights.farFromTrend == nil)
        #expect(weights.prompt?.text == "27.2", "back in the prompt, to fix it")
        #expect(try await world.store.messageCount(userID: user.id) == count, "n stores nothing")

        _ = await dashboard.press(.enter)
        _ = await dashboard.press(.char("y"))
        #expect(weights.prompt == nil)
        #expect(weights.rows.first?.weight == "27.2")
        #expect(try await world.store.messageCount(userID: user.id) == count + 1, "y stores it")
        #expect(weights.summary.first?.text != trend, "the trend moved")

        _ = await dashboard.press(.char("U"))
        #expect(dashboard.ui.notice?.hasPrefix("undid: removed the weigh-in of 27.2 kg at ") == true, "\(dashboard.ui.notice ?? "none")")
        #expect(frame(of: dashboard, size: size).contains("undid: removed the weigh-in of 27.2 kg"))
        #expect(weights.rows.first?.weight != "27.2", "the table reloaded without it")
        #expect(try await world.store.messageCount(userID: user.id) == count)
        #expect(weights.summary.first?.text == trend)
    }

    @Test func ctrlZUndoesACorrectionThenADeleteAndThenSaysNothingIsLeft() async throws {
        let (world, dashboard, weights, user) = try await weights()
        let newest = try #require(weights.rows.first)
        _ = await dashboard.press(.char("e"))
        for _ in 0..<8 { _ = await dashboard.press(.backspace) }
        await dashboard.type("70")
        _ = await dashboard.press(.enter)
        #expect(weights.rows.first?.weight == "70.0")
        _ = await dashboard.press(.char("d"))
        _ = await dashboard.press(.char("y"))
        #expect(weights.rows.first?.id != newest.id)

        _ = await dashboard.press(.char("U"))
        #expect(dashboard.ui.notice?.hasPrefix("undid: put back the deleted weigh-in of 70.0 kg") == true, "\(dashboard.ui.notice ?? "none")")
        #expect(weights.rows.first?.id == newest.id)
        _ = await dashboard.press(.char("U"))
        #expect(dashboard.ui.notice?.hasPrefix("undid: put back \(newest.weight) kg in the weigh-in") == true, "\(dashboard.ui.notice ?? "none")")
        #expect(try await world.store.reading(id: newest.id, userID: user.id).data[Field.weight]?.number.map { String(format: "%.1f", $0) } == newest.weight)
        _ = await dashboard.press(.char("U"))
        #expect(dashboard.ui.notice == "nothing to undo in this session")
    }
}

/// The same against a real server on a loopback port: the question comes from the trend the server's
/// weigh-ins make, and U undoes through `POST /v1.1/hmon/undo`.
@MainActor
struct RemoteTypoAndUndoTests {
    @Test func aTypoSavedOverAServerIsUndoneWithCtrlZ() async throws {
        let world = try await DemoWorld()
        let (dashboard, server) = try await world.remoteDashboard()
        dashboard.resize(to: Size(width: 120, height: 40))
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()
        _ = await dashboard.press(.char("2"))
        let weights = try #require(dashboard.weights)
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let count = try await world.store.messageCount(userID: user.id)

        _ = await dashboard.press(.char("a"))
        await dashboard.type("27.2")
        _ = await dashboard.press(.enter)
        #expect(weights.farFromTrend?.question.hasPrefix("27.2 kg is ") == true)
        _ = await dashboard.press(.char("y"))
        #expect(try await world.store.messageCount(userID: user.id) == count + 1)

        _ = await dashboard.press(.char("U"))
        #expect(dashboard.ui.notice?.hasPrefix("undid: removed the weigh-in of 27.2 kg") == true, "\(dashboard.ui.notice ?? "none")")
        #expect(try await world.store.messageCount(userID: user.id) == count)
        #expect(weights.rows.first?.weight != "27.2")
        await server.stop()
    }
}
