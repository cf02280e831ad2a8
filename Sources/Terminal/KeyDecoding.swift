import CNcurses

/// What one `get_wch` call returned: a character (status OK) or a function-key code (KEY_CODE_YES).
public enum RawKey: Hashable, Sendable {
    case character(UInt32)
    case keyCode(Int32)
}

extension Key {
    /// Decodes what ncurses reported into a `Key`. Pure, so every mapping is unit-tested without a terminal.
    /// Enter arrives as \r (nonl mode), \n or KEY_ENTER; Backspace as 127, 8 (Ctrl-H) or KEY_BACKSPACE.
    public static func decode(_ raw: RawKey) -> Key {
        switch raw {
        case .character(let code): return decodeCharacter(code)
        case .keyCode(let code): return decodeKeyCode(code)
        }
    }

    private static func decodeCharacter(_ code: UInt32) -> Key {
        switch code {
        case 13, 10: return .enter
        case 9: return .tab
        case 27: return .escape
        case 127, 8: return .backspace
        case 1...26: return .ctrl(Character(Unicode.Scalar(UInt8(code) + 96)))
        case 0..<32: return .other(Int32(code))
        default:
            guard let scalar = Unicode.Scalar(code) else { return .other(Int32(bitPattern: code)) }
            return .char(Character(scalar))
        }
    }

    private static func decodeKeyCode(_ code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_IC: return .insert
        case KEY_RESIZE: return .resize
        case hm_KEY_F(1)...hm_KEY_F(63): return .function(Int(code - hm_KEY_F(0)))
        default: return .other(code)
        }
    }
}
