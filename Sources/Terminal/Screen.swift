import CNcurses
import Foundation

/// Why the screen could not open.
public enum ScreenError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a cron job).
    case notATerminal
    /// ncurses could not start: an unknown terminal type, or a screen is already open.
    case cannotStart(String)

    public var description: String {
        switch self {
        case .notATerminal: "hmon needs a terminal; try `hmon snapshot`"
        case .cannotStart(let reason): reason
        }
    }
}

/// The full-screen terminal: starts ncurses, gives a `CursesCanvas` to draw on and an event stream to
/// wait on, and always puts the terminal back. Restoring happens on `stop()` (call it in a `defer`, or use
/// `Screen.run`), and also on SIGINT/SIGTERM/SIGHUP (then exit 128 + signal) and on crash signals
/// (then the crash carries on). Only one screen can be open at a time: ncurses is process-global.
///
///     try await Screen.run { screen in
///         for await event in screen.events(tick: .seconds(1)) {
///             switch event {
///             case .keyReady: for key in screen.readKeys() where key == .char("q") { return }
///             case .resize: screen.updateSize()
///             case .tick: break
///             }
///             let frame = screen.newFrame(); draw(on: frame); screen.present(frame)
///         }
///     }
@MainActor
public final class Screen {
    public struct Options: Sendable {
        /// The terminfo name; nil means `TERM` from `environment`.
        public var terminalType: String?
        public var inputFD: Int32
        public var outputFD: Int32
        /// Refuse with `ScreenError.notATerminal` unless both descriptors are terminals (off only for tests).
        public var requireTerminal: Bool
        /// `--no-color`: draw in monochrome whatever the terminal can do.
        public var noColor: Bool
        public var theme: Theme
        /// Where `TERM`, `NO_COLOR` and `COLORTERM` are read from.
        public var environment: [String: String]
        /// Report clicks and the wheel as `Key.mouse` (`--no-mouse` turns it off, leaving the terminal's
        /// own selection and scrollback to the mouse).
        public var mouse: Bool

        public init(terminalType: String? = nil, inputFD: Int32 = STDIN_FILENO, outputFD: Int32 = STDOUT_FILENO,
                    requireTerminal: Bool = true, noColor: Bool = false, theme: Theme = .builtInDefault,
                    environment: [String: String] = ProcessInfo.processInfo.environment, mouse: Bool = false) {
            self.mouse = mouse
            self.terminalType = terminalType
            self.inputFD = inputFD
            self.outputFD = outputFD
            self.requireTerminal = requireTerminal
            self.noColor = noColor
            self.theme = theme
            self.environment = environment
        }
    }

    /// Writes frames to the terminal, only the cells that changed.
    public let backend: CursesBackend
    /// The terminal size in cells, updated by `updateSize()` and by a resize key.
    public private(set) var size: Size
    /// The theme mapped to what this terminal can show.
    public private(set) var palette: Palette
    public var colorDepth: ColorDepth { palette.depth }

    private let options: Options
    private let screen: OpaquePointer
    private let outputFile: UnsafeMutablePointer<FILE>
    private let inputFile: UnsafeMutablePointer<FILE>
    private let watcher: InputWatcher
    private var watcherStarted = false
    private var tickTask: Task<Void, Never>?
    private var isStopped = false

    private static var isOpen = false

    private init(options: Options, screen: OpaquePointer, outputFile: UnsafeMutablePointer<FILE>,
                 inputFile: UnsafeMutablePointer<FILE>, watcher: InputWatcher, palette: Palette) {
        self.options = options
        self.screen = screen
        self.outputFile = outputFile
        self.inputFile = inputFile
        self.watcher = watcher
        self.palette = palette
        self.backend = CursesBackend(window: hm_stdscr(), palette: palette)
        self.size = Size(width: Int(hm_COLS()), height: Int(hm_LINES()))
    }

    /// Opens the full screen: UTF-8 locale, raw keys without echo, keypad decoding, hidden cursor,
    /// a 25 ms Escape delay, colours mapped from `options.theme`.
    public static func start(_ options: Options = Options()) throws(ScreenError) -> Screen {
        guard !isOpen else { throw .cannotStart("the terminal screen is already open") }
        if options.requireTerminal && (isatty(options.inputFD) == 0 || isatty(options.outputFD) == 0) {
            throw .notATerminal
        }
        prepareLocale()

        let watcher = InputWatcher(inputFD: options.inputFD)
        let terminalFD = isatty(options.inputFD) != 0 ? options.inputFD : options.outputFD
        // Before newterm: ncurses then leaves SIGINT/SIGTERM/SIGWINCH to us, and the saved modes are the user's.
        TerminalRestorer.arm(terminalFD: terminalFD, wakeFD: watcher.wakeWrite)

        guard let outputFile = fdopen(dup(options.outputFD), "w"), let inputFile = fdopen(dup(options.inputFD), "r") else {
            TerminalRestorer.disarm()
            watcher.stop(threadStarted: false)
            throw .cannotStart("cannot open the terminal: \(String(cString: strerror(errno)))")
        }
        let type = options.terminalType ?? options.environment["TERM"] ?? ""
        guard !type.isEmpty, let screen = newterm(type, outputFile, inputFile) else {
            TerminalRestorer.disarm()
            watcher.stop(threadStarted: false)
            fclose(outputFile); fclose(inputFile)
            throw .cannotStart(type.isEmpty
                ? "TERM is not set; set it to your terminal's type (e.g. TERM=xterm-256color)"
                : "unknown terminal type '\(type)'; set TERM to one your system knows (e.g. xterm-256color)")
        }
        set_term(screen)
        raw()
        noecho()
        nonl()
        keypad(hm_stdscr(), true)
        nodelay(hm_stdscr(), true)
        curs_set(0)
        hm_set_escdelay(25)
        if options.mouse {
            // Presses rather than clicks (mouseinterval 0): a click then needs no wait for its release.
            mousemask(hm_mouse_events(), nil)
            mouseinterval(0)
        }
        TerminalRestorer.setRestoreSequence(restoreSequence(mouse: options.mouse))

        var depth = ColorDepth.monochrome
        if has_colors() {
            start_color()
            depth = ColorDepth.detect(colors: Int(hm_COLORS()), canChangeColor: can_change_color(),
                                      environment: options.environment, noColor: options.noColor)
            // Without colour, pair 0 is the terminal's own foreground and background (no-color.org):
            // after start_color it would otherwise be white on black, turning a light terminal dark.
            if depth == .monochrome { use_default_colors() }
        }
        let used = Palette(theme: options.theme, depth: depth).install()
        isOpen = true
        return Screen(options: options, screen: screen, outputFile: outputFile, inputFile: inputFile,
                      watcher: watcher, palette: Palette(theme: options.theme, depth: used))
    }

    /// Opens the screen, runs `body`, and stops the screen however `body` ends (returns or throws).
    public static func run<T>(_ options: Options = Options(), _ body: (Screen) async throws -> T) async throws -> T {
        let screen = try start(options)
        defer { screen.stop() }
        return try await body(screen)
    }

    /// Restores the terminal (`endwin`, exactly once; later calls do nothing) and ends the event stream.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        tickTask?.cancel()
        TerminalRestorer.detachWakePipe()
        watcher.stop(threadStarted: watcherStarted)
        endwin()
        TerminalRestorer.restoreModes()
        TerminalRestorer.disarm()
        delscreen(screen)
        fclose(outputFile)
        fclose(inputFile)
        Self.isOpen = false
    }

    /// Ctrl-Z: gives the terminal back as `stop()` does, stops hmon as the shell's job control expects, and
    /// when `fg` resumes it takes the screen again; the next `present` draws the whole frame. The keys arrive
    /// raw, so the terminal never sends SIGTSTP itself: hmon sends it, with the default action (stop) in place
    /// of any handler ncurses installed, and puts that handler back after.
    public func suspend() {
        guard !isStopped else { return }
        if options.mouse { mousemask(0, nil) }
        endwin()
        TerminalRestorer.restoreModes()
        var stop = sigaction(), previous = sigaction()
        stop.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&stop.sa_mask)
        sigaction(SIGTSTP, &stop, &previous)
        raise(SIGTSTP)
        // Here after SIGCONT (`fg`).
        sigaction(SIGTSTP, &previous, nil)
        reset_prog_mode()
        if options.mouse { mousemask(hm_mouse_events(), nil) }
        backend.invalidate()
    }

    /// Switches theme (e.g. `T` cycling); redraw afterwards.
    /// Turns mouse reporting on or off while running (config.toml's `mouse` edited); the restore sequence
    /// keeps turning it off at exit once it was ever on.
    public func setMouse(_ on: Bool) {
        guard !isStopped else { return }
        mousemask(on ? hm_mouse_events() : 0, nil)
        if on {
            mouseinterval(0)
            TerminalRestorer.setRestoreSequence(Self.restoreSequence(mouse: true))
        }
    }

    public func setTheme(_ theme: Theme) {
        guard !isStopped else { return }
        let requested = Palette(theme: theme, depth: ColorDepth.detect(
            colors: Int(hm_COLORS()), canChangeColor: can_change_color(),
            environment: options.environment, noColor: options.noColor || !has_colors()))
        palette = Palette(theme: theme, depth: requested.install())
        backend.setPalette(palette)
    }

    /// Shows `frame`: writes the cells that changed since the last frame and updates the terminal once
    /// (nothing at all when the frame is unchanged). Returns the number of cells written.
    @discardableResult
    public func present(_ frame: GridCanvas) -> Int {
        guard !isStopped else { return 0 }
        return backend.flush(frame)
    }

    /// An empty frame of the screen's size to draw the next frame into.
    public func newFrame() -> GridCanvas { GridCanvas(size: size) }

    /// Events to wait on: `.keyReady`, `.resize`, and `.tick` every `interval` if given. Call once per screen.
    /// A background thread polls the input and never touches ncurses; the stream ends when the screen stops.
    public func events(tick interval: Duration? = nil) -> AsyncStream<TerminalEvent> {
        // Nothing is dropped: the watcher waits for `readKeys`' acknowledgement after each `.keyReady`, so a
        // `.keyReady` pushed out of a bounded buffer by ticks (a main thread starved for 64 ticks, seen on a machine
        // loaded past 40) left every later key unread. A tick is a few bytes; a starved loop catches up on them.
        let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self, bufferingPolicy: .unbounded)
        guard !watcherStarted, !isStopped else {
            continuation.finish()
            return stream
        }
        watcherStarted = true
        watcher.start(continuation)
        if let interval {
            tickTask = Task.detached {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    if Task.isCancelled { break }
                    continuation.yield(.tick)
                }
            }
        }
        return stream
    }

    /// Every key waiting, decoded (without blocking: no-delay mode). A resize key also updates `size`.
    public func readKeys() -> [Key] {
        guard !isStopped else { return [] }
        var keys: [Key] = []
        while keys.count < 512 {
            var code: UInt32 = 0
            let status = hm_wget_wch(hm_stdscr(), &code)
            if status == ERR { break }
            if status == KEY_CODE_YES && Int32(bitPattern: code) == hm_KEY_MOUSE() {
                if let event = readMouseEvent() { keys.append(.mouse(event)) }
                continue
            }
            let key = Key.decode(status == KEY_CODE_YES ? .keyCode(Int32(bitPattern: code)) : .character(code))
            if key == .resize { updateSize() }
            keys.append(key)
        }
        watcher.acknowledge()
        return keys
    }

    /// Reads the terminal's size and resizes ncurses to it. Returns true when the size changed.
    @discardableResult
    public func updateSize() -> Bool {
        guard !isStopped else { return false }
        var rows: Int32 = 0, columns: Int32 = 0
        if hm_get_winsize(options.outputFD, &rows, &columns) == 0, rows > 0, columns > 0,
           rows != hm_LINES() || columns != hm_COLS() {
            resizeterm(rows, columns)
        }
        let new = Size(width: Int(hm_COLS()), height: Int(hm_LINES()))
        defer { size = new }
        return new != size
    }

    /// ncurses draws wide characters only in a UTF-8 locale; fall back to C.UTF-8 when the user's is not.
    private static func prepareLocale() {
        setlocale(LC_ALL, "")
        if let codeset = hm_codeset(), String(cString: codeset) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    /// terminfo strings may hold delays written `$<5>`; they are for tputs, not for the terminal.
    private static func withoutPadding(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "$"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "<"),
               let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: ">")) {
                i = close + 1
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    /// The bytes that leave full-screen mode on this terminal: normal attributes, original colours,
    /// visible cursor, keypad off, main screen back.
    /// The mouse event behind a KEY_MOUSE; nil for one hmon does not use (a release, a right click).
    private func readMouseEvent() -> MouseEvent? {
        var x: Int32 = 0, y: Int32 = 0
        var buttons: mmask_t = 0
        guard hm_getmouse(&x, &y, &buttons) == OK else { return nil }
        if hm_mouse_is_wheel_up(buttons) != 0 { return MouseEvent(.wheelUp, x: Int(x), y: Int(y)) }
        if hm_mouse_is_wheel_down(buttons) != 0 { return MouseEvent(.wheelDown, x: Int(x), y: Int(y)) }
        if hm_mouse_is_click(buttons) != 0 { return MouseEvent(.click, x: Int(x), y: Int(y)) }
        return nil
    }

    private static func restoreSequence(mouse: Bool) -> [UInt8] {
        let modes = ["sgr0", "oc", "op", "cnorm", "rmkx", "rmcup"].flatMap { name -> [UInt8] in
            guard let value = hm_tigetstr(name) else { return [] }
            return withoutPadding(Array(String(cString: value).utf8))
        }
        // Mouse reporting off (xterm's button and SGR modes), or a crashed hmon leaves every click
        // typing escape sequences into the shell.
        return modes + (mouse ? Array("\u{1b}[?1006l\u{1b}[?1000l".utf8) : [])
    }
}
