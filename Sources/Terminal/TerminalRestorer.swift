#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the user's terminal back when the process is stopped by a signal, so a `kill`, a closed window
/// or a crash never leaves the shell in raw mode on the alternate screen.
///
/// A signal handler may only do async-signal-safe work, so everything it needs is prepared beforehand
/// in memory allocated once: the terminal modes from before the screen started (restored with `tcsetattr`)
/// and the terminal's own "leave full-screen mode" bytes (written with `write`). SIGINT, SIGTERM and SIGHUP
/// then exit with 128 + the signal number; crash signals hand over to the previous handler (Swift's
/// backtracer, or the default core dump) by re-raising. SIGWINCH only wakes the input thread.
enum TerminalRestorer {
    /// Signals after which the process ends normally: restore, then `_exit(128 + signal)`.
    static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// Signals of a crash (Swift traps raise SIGILL or SIGTRAP): restore, then re-raise with the previous handler.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGTRAP]

    /// Written only by the main actor while handlers are not installed, or through `isArmed` before
    /// arming; read by signal handlers. Raw memory, not Swift objects, so a handler never retains or allocates.
    struct State {
        var isArmed: Int32 = 0
        var terminalFD: Int32 = -1
        var wakeFD: Int32 = -1
        var savedModes = termios()
        var restoreLength: Int = 0
        var restoreBytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                           UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// Allocated once and never freed: signal handlers may run at any time. Access is confined to the main
    /// actor (setup) and to handlers (read-only, after `isArmed`), which is why it is `nonisolated(unsafe)`.
    nonisolated(unsafe) static let state: UnsafeMutablePointer<State> = {
        let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
        pointer.initialize(to: State())
        return pointer
    }()

    /// The handlers that were installed before ours, indexed by signal number, restored on `disarm`.
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        pointer.initialize(repeating: sigaction(), count: 65)
        return pointer
    }()

    @MainActor static var installed: [Int32] = []

    /// Remembers the terminal modes now (before ncurses changes them) and installs the handlers.
    @MainActor
    static func arm(terminalFD: Int32, wakeFD: Int32) {
        state.pointee.isArmed = 0
        state.pointee.terminalFD = terminalFD
        state.pointee.wakeFD = wakeFD
        state.pointee.restoreLength = 0
        _ = tcgetattr(terminalFD, &state.pointee.savedModes)
        state.pointee.isArmed = 1
        for signal in terminationSignals { install(signal, handler: handleTermination) }
        for signal in crashSignals { install(signal, handler: handleCrash, resetHand: true) }
        install(SIGWINCH, handler: handleWindowChange)
    }

    /// Sets the bytes that take the terminal out of full-screen mode (known once terminfo is loaded).
    @MainActor
    static func setRestoreSequence(_ bytes: [UInt8]) {
        let count = min(bytes.count, MemoryLayout.size(ofValue: state.pointee.restoreBytes))
        state.pointee.restoreLength = 0
        withUnsafeMutableBytes(of: &state.pointee.restoreBytes) { buffer in
            for i in 0..<count { buffer[i] = bytes[i] }
        }
        state.pointee.restoreLength = count
    }

    /// Stops SIGWINCH from writing to the wake pipe (before the pipe closes and its number is reused).
    @MainActor
    static func detachWakePipe() {
        state.pointee.wakeFD = -1
    }

    /// Removes our handlers (after a normal `endwin`), putting back whatever was there before.
    @MainActor
    static func disarm() {
        state.pointee.isArmed = 0
        for signal in installed { sigaction(signal, previousActions + Int(signal), nil) }
        installed = []
        state.pointee.wakeFD = -1
    }

    /// The saved terminal modes, for a normal stop to put back after `endwin`.
    @MainActor
    static func restoreModes() {
        var modes = state.pointee.savedModes
        _ = tcsetattr(state.pointee.terminalFD, TCSADRAIN, &modes)
    }

    @MainActor
    private static func install(_ signal: Int32, handler: @convention(c) (Int32) -> Void, resetHand: Bool = false) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = resetHand ? Int32(truncatingIfNeeded: SA_RESETHAND) : Int32(truncatingIfNeeded: SA_RESTART)
        sigaction(signal, &action, previousActions + Int(signal))
        installed.append(signal)
    }

    /// Async-signal-safe: tcsetattr and write only.
    static func restoreFromSignalHandler() {
        let state = Self.state
        guard state.pointee.isArmed == 1 else { return }
        state.pointee.isArmed = 0
        let fd = state.pointee.terminalFD
        let length = state.pointee.restoreLength
        if length > 0 {
            withUnsafeBytes(of: &state.pointee.restoreBytes) { buffer in
                _ = write(fd, buffer.baseAddress, length)
            }
        }
        _ = tcsetattr(fd, TCSADRAIN, &state.pointee.savedModes)
    }
}

private func handleTermination(_ signal: Int32) {
    TerminalRestorer.restoreFromSignalHandler()
    _exit(128 + signal)
}

private func handleCrash(_ signal: Int32) {
    TerminalRestorer.restoreFromSignalHandler()
    sigaction(signal, TerminalRestorer.previousActions + Int(signal), nil)
    raise(signal)
}

private func handleWindowChange(_ signal: Int32) {
    let fd = TerminalRestorer.state.pointee.wakeFD
    guard fd >= 0 else { return }
    var byte: UInt8 = UInt8(ascii: "w")
    _ = write(fd, &byte, 1)
}
