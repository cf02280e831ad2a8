import HealthViewModels
import Terminal

/// What a terminal sends while a prompt is open: each 5 bytes of the input are one `get_wch` result (a
/// flag byte, then a character or a key code), decoded as the dashboard decodes them and typed into a
/// text field; the field is then drawn into a frame as narrow as the first byte says.
enum KeyFuzz {
    static func type(_ input: [UInt8]) throws(FuzzFinding) {
        guard let first = input.first else { return }
        let width = Int(first) % 120 + 1
        var field = TextField(label: "Weight in kg", limit: 64)
        var index = 1
        while index + 5 <= input.count {
            let value = UInt32(input[index + 1]) | UInt32(input[index + 2]) << 8
                | UInt32(input[index + 3]) << 16 | UInt32(input[index + 4]) << 24
            let raw: RawKey = input[index] & 1 == 0 ? .character(value) : .keyCode(Int32(bitPattern: value))
            switch Key.decode(raw) {
            case .char(let character): field.insert(character)
            case .backspace: field.deleteBackward()
            case .ctrl("u"): field.clear()
            default: break
            }
            index += 5
        }
        if field.text.count > field.limit {
            throw FuzzFinding("the field holds \(field.text.count) characters, over its limit of \(field.limit)")
        }
        let canvas = GridCanvas(width: width, height: 2)
        let shown = DisplayWidth.clip(field.displayText, to: width)
        if DisplayWidth.of(shown) > width {
            throw FuzzFinding("clipping to \(width) cells left \(DisplayWidth.of(shown)) cells")
        }
        let used = canvas.text(field.label + ": " + field.displayText, at: Point(x: 0, y: 0), style: .input, maxWidth: width)
        if used > width { throw FuzzFinding("text drawn \(used) cells wide into \(width)") }
        canvas.text(shown, at: Point(x: width / 2, y: 1), style: .text, maxWidth: nil)
        for row in 0..<2 where DisplayWidth.of(canvas.line(row)) > width {
            throw FuzzFinding("row \(row) of a \(width)-cell frame is \(DisplayWidth.of(canvas.line(row))) cells wide")
        }
    }
}
