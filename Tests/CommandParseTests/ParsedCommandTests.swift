import Testing
@testable import hmon

/// What a command line becomes when it is right: the command and the values it will run with.
@Suite struct ParsedCommandTests {
    @Test func aWeighInTypedWithItsUnitKeepsTheUnit() throws {
        let command = try #require(HMon.parse(["add", "weight", "160", "lb", "--at", "07:30"]).command as? AddWeightCommand)
        let (value, unit) = try AddWeightCommand.parse(command.typed)
        #expect(value == 160 && unit == .lb)
        #expect(command.at == "07:30" && !command.force)
        let comma = try #require(HMon.parse(["add", "weight", "72,4", "kg"]).command as? AddWeightCommand)
        #expect(try AddWeightCommand.parse(comma.typed).0 == 72.4)
    }

    @Test func theDashboardIsWhatABareLaunchOpens() throws {
        #expect(HMon.parse([]).command is DashboardCommand)
        let demo = try #require(HMon.parse(["--demo"]).command as? DashboardCommand)
        #expect(demo.demo)
        let snapshot = try #require(HMon.parse(["snapshot", "--demo", "--screen", "weights", "--size", "120x40"]).command as? SnapshotCommand)
        #expect(snapshot.screen == "weights" && snapshot.demo)
    }

    @Test func serveTakesItsDefaultsWhenNothingIsSaid() throws {
        let serve = try #require(HMon.parse(["serve"]).command as? ServeCommand)
        #expect(serve.host == "127.0.0.1" && serve.port == 8080)
        #expect(serve.pulled.withings.pollMinutes == 15 && serve.pulled.oura.pollMinutes == 60)
    }
}
