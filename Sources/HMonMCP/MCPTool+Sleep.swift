import Foundation

extension MCPTool {
    /// The last nights' sleep, from the sleep readings as they are kept.
    static let sleep = MCPTool(
        name: "sleep",
        description: """
            The last nights' sleep as the person's devices recorded it, newest first: one entry a night, on the \
            day it ends, with time asleep, time in bed and the stages (deep, REM, core, awake), in minutes, a \
            figure the night lacks null. JSON {"nights": [{day, asleepMinutes, inBedMinutes, deepMinutes, \
            remMinutes, coreMinutes, awakeMinutes, device}]}.
            """,
        arguments: ArgumentSchema([
            ArgumentSchema.integer("nights", 1...90, default: 7, "How many days back, today included."),
        ]),
        answer: { arguments, reader in
            let (json, lines) = try await SleepNightsJSON.read(reader.service, nights: try arguments.integer("nights"),
                                                              now: reader.now(), calendar: reader.calendar)
            return MCPAnswer(json: json, text: lines.joined(separator: "\n"))
        })
}
