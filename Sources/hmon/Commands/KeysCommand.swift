import ArgumentParser
import Foundation
import Terminal

/// `hmon keys`: shows the name hmon decodes for each key pressed, like showkey. For people whose terminal
/// sends something unexpected (a Home key that does nothing, Backspace that deletes forward), and for the
/// end-to-end test that the terminal is restored however hmon ends.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Show the name of each key as you press it (q or Ctrl-C quits)."
    )

    @Flag(name: .customLong("no-color"), help: "Draw without colours (as when NO_COLOR is set).")
    var noColor = false

    @Flag(name: .customLong("list"),
          help: "Print every dashboard action by the name config.toml's [keys] takes, with its keys as the file leaves them, and exit.")
    var list = false

    @Flag(name: .customLong("markdown"),
          help: "Print docs/dashboard.md's key tables in Markdown, made from the dashboard's key tables as shipped (no config.toml), and exit.")
    var markdown = false

    func run() async throws {
        if markdown {
            try await KeyListCommand.printMarkdown()
            return
        }
        if list {
            try await KeyListCommand.print()
            return
        }
        do {
            try await KeysScreen.run(noColor: noColor)
        } catch let error as ScreenError {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// The `hmon keys` screen: the latest keys at the top.
@MainActor
enum KeysScreen {
    static func run(noColor: Bool) async throws {
        try await Screen.run(Screen.Options(noColor: noColor)) { screen in
            var pressed: [Key] = []
            draw(pressed, on: screen)
            for await event in screen.events() {
                switch event {
                case .keyReady:
                    for key in screen.readKeys() {
                        if key == .char("q") || key == .ctrl("c") { return }
                        if key != .resize { pressed.append(key) }
                    }
                case .resize:
                    screen.updateSize()
                case .tick:
                    break
                }
                pressed = Array(pressed.suffix(200))
                draw(pressed, on: screen)
            }
        }
    }

    static func draw(_ pressed: [Key], on screen: Screen) {
        let canvas = screen.newFrame()
        let size = canvas.size
        canvas.clear(.text)
        canvas.text("hmon keys: press keys to see how hmon reads them; q quits", at: Point(x: 1, y: 0), style: .title)
        let term = ProcessInfo.processInfo.environment["TERM"] ?? "?"
        canvas.text("TERM=\(term) · colours: \(screen.colorDepth.rawValue) · \(size)", at: Point(x: 1, y: 1), style: .dim)
        canvas.horizontalLine(at: Point(x: 0, y: 2), width: size.width, style: .border)
        for (row, key) in pressed.reversed().prefix(max(0, size.height - 3)).enumerated() {
            let y = 3 + row
            canvas.text(key.description, at: Point(x: 2, y: y), style: row == 0 ? .accent : .text, maxWidth: 14)
            canvas.text(detail(key), at: Point(x: 18, y: y), style: .dim)
        }
        screen.present(canvas)
    }

    /// The raw value behind the name, for reporting odd terminals.
    static func detail(_ key: Key) -> String {
        switch key {
        case .char(let character):
            character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }
                .joined(separator: " ")
        case .ctrl(let letter):
            "^\(String(letter).uppercased())"
        case .other(let code):
            "code \(code)"
        default:
            ""
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
