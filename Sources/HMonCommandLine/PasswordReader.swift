import Foundation
import HealthCore
import HealthModel

/// Reads a password without showing it: from standard input (`--password-stdin`, for scripts) or from
/// the terminal with echo off. The terminal's settings are restored on every path, Ctrl-C included
/// (signals are off while reading, so Ctrl-C arrives as a key and cancels).
public enum PasswordReader {
    /// The first line of standard input, without its line ending. Read as bytes, one at a time (nothing
    /// after the line is consumed), and refused when they are not UTF-8 rather than decoded with
    /// replacement characters.
    public static func fromStandardInput() throws -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        var sawAny = false
        while read(STDIN_FILENO, &byte, 1) == 1 {
            sawAny = true
            if byte == 0x0A { break }
            bytes.append(byte)
        }
        guard sawAny else {
            throw CommandError("no password on standard input: pipe it in, e.g. `echo \"$PW\" | hmon user add NAME --password-stdin`")
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return try decoded(bytes)
    }

    /// The password's bytes as text; `AccountRules.notUTF8` when they are not UTF-8.
    static func decoded(_ bytes: [UInt8]) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw HealthError.invalidValue(AccountRules.notUTF8) }
        return text
    }

    /// Asks twice on the terminal and returns the password when both answers agree.
    public static func promptTwice(for name: String) throws -> String {
        let first = try prompt("Password for \(name): ")
        let second = try prompt("Once more: ")
        guard first == second else { throw CommandError("the two passwords differ: run the command again") }
        return first
    }

    public static func prompt(_ label: String) throws -> String {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else {
            throw CommandError("there is no terminal to ask for the password: pass --password-stdin and pipe it in")
        }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else {
            throw CommandError("cannot turn off echo on the terminal: pass --password-stdin and pipe the password in")
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        _ = tcsetattr(tty, TCSANOW, &quiet)
        defer {
            _ = tcsetattr(tty, TCSANOW, &saved)
            _ = write(tty, "\n", 1)
        }
        // The label may quote a user name or a server address from the command line.
        _ = TerminalText.escaped(label).withCString { write(tty, $0, strlen($0)) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1 {
            switch byte {
            case 0x0A, 0x0D:
                return try decoded(bytes)
            case 0x03:
                throw CommandError("cancelled")
            case 0x04 where bytes.isEmpty:
                throw CommandError("cancelled")
            case 0x7F, 0x08:
                while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
            default:
                bytes.append(byte)
            }
        }
        throw CommandError("the terminal closed before the password was entered")
    }
}
