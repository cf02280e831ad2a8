// Frame-drawing benchmark for the Terminal layer: `swift run -c release terminal-bench`.
// Draws a dashboard-sized frame (200×60: clear, boxes, text with wide characters, bars, sparklines)
// on the in-memory grid and on real ncurses over a pseudo-terminal, and prints the time per frame.
import CNcurses
import Foundation
import Synchronization
import Terminal

func drawFrame(on canvas: some Canvas, frame: Int) {
    let size = canvas.size
    canvas.clear(.text)
    canvas.box(Rect(size), style: .border, title: "hmon — weight and energy")
    let values: [Double?] = (0..<90).map { day in day % 7 == 3 ? nil : 72 + sin(Double(day + frame) / 9) * 2 }
    for panel in 0..<4 {
        let rect = Rect(x: 1 + panel * (size.width - 2) / 4, y: 1, width: (size.width - 2) / 4, height: size.height - 3)
        canvas.box(rect, style: .border, title: "Panel \(panel) 体重")
        for row in 1..<(rect.height - 1) {
            let y = rect.y + row
            switch row % 4 {
            case 0: canvas.text("2026-11-\(10 + row % 20)  72.\(row % 10) kg  −0.\(row % 9) kg", at: Point(x: rect.x + 1, y: y),
                                style: row % 8 == 0 ? .bad : .text, maxWidth: rect.width - 2)
            case 1: canvas.bar(at: Point(x: rect.x + 1, y: y), width: rect.width - 2, fraction: Double((row + frame) % 10) / 10)
            case 2: canvas.sparkline(values, at: Point(x: rect.x + 1, y: y), width: rect.width - 2)
            default: canvas.text("資料 🔥 resting energy so far today \(1000 + row) kcal", at: Point(x: rect.x + 1, y: y),
                                 style: .dim, maxWidth: rect.width - 2)
            }
        }
    }
    canvas.fill(Rect(x: 0, y: size.height - 1, width: size.width, height: 1), character: " ", style: .status)
    canvas.text(" q quit  r refresh  T theme  ? help", at: Point(x: 0, y: size.height - 1), style: .status)
}

/// Prints wall time and this thread's CPU time per frame: on a busy machine the CPU time is the fairer figure.
func measure(_ name: String, frames: Int, _ body: (Int) -> Void) {
    body(0)  // warm up
    func threadCPU() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1e6 + Double(now.tv_nsec) / 1e3
    }
    let clock = ContinuousClock()
    let cpuStart = threadCPU()
    let elapsed = clock.measure { for frame in 1...frames { body(frame) } }
    let cpu = (threadCPU() - cpuStart) / Double(frames)
    let wall = (Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6) / Double(frames)
    print("\(name): \(String(format: "%.0f", cpu)) µs CPU, \(String(format: "%.0f", wall)) µs wall per frame (\(frames) frames)")
}

let size = Size(width: 200, height: 60)
let grid = GridCanvas(size: size)
measure("GridCanvas draw 200×60", frames: 200) { drawFrame(on: grid, frame: $0) }
measure("GridCanvas renderPlain 200×60", frames: 200) { _ in _ = grid.renderPlain() }
measure("GridCanvas renderStyled 200×60", frames: 200) { _ in _ = grid.renderStyled() }

// Real ncurses on a pseudo-terminal of the same size; a thread discards what ncurses writes.
var control: Int32 = -1
var name = [CChar](repeating: 0, count: 128)
guard hm_open_pty(&control, &name, Int32(name.count), Int32(size.height), Int32(size.width)) == 0 else {
    fatalError("cannot open a pseudo-terminal")
}
let terminal = open(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
let written = ByteCounter()
let controlFD = control
Thread {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(controlFD, &buffer, buffer.count)
        if count <= 0 { break }
        written.add(count)
    }
}.start()

await MainActor.run {
    do {
        let screen = try Screen.start(Screen.Options(terminalType: "xterm-256color", inputFD: terminal, outputFD: terminal))
        defer { screen.stop() }
        let before = written.value
        measure("grid draw + curses flush 200×60 (changing frame)", frames: 100) {
            let frame = screen.newFrame()
            drawFrame(on: frame, frame: $0)
            screen.present(frame)
        }
        usleep(100_000)
        print("bytes sent to the terminal per changing frame: about \((written.value - before) / 101)")
        let unchanged = written.value
        measure("grid draw + curses flush 200×60 (same frame)", frames: 100) { _ in
            let frame = screen.newFrame()
            drawFrame(on: frame, frame: 0)
            screen.present(frame)
        }
        usleep(100_000)
        print("bytes sent per unchanged frame: about \((written.value - unchanged) / 101)")
    } catch {
        print("cannot open the screen: \(error)")
    }
}

/// A byte counter shared with the reader thread.
final class ByteCounter: Sendable {
    private let total = Mutex(0)
    func add(_ n: Int) { total.withLock { $0 += n } }
    var value: Int { total.withLock { $0 } }
}
