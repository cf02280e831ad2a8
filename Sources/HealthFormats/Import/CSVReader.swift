import HealthModel
/// Splits CSV text, fed in chunks, into rows of fields (RFC 4180: fields in double quotes may hold
/// commas, newlines and doubled quotes). Each row comes with the line it starts on.
///
/// The separator is a comma or, as spreadsheet exports in decimal-comma locales write it, a semicolon.
/// Lines end in LF, CRLF or a lone CR (old Mac and some spreadsheet exports): each is one line break.
struct CSVReader {
    let delimiter: UInt8
    private var field: [UInt8] = []
    private var row: [String] = []
    private var inQuotes = false
    /// A quote seen inside a quoted field: the next byte says whether it was `""` or the closing one.
    private var quoteSeen = false
    private var fieldIsQuoted = false
    private var atFileStart = true
    private var line = 1
    private var rowLine = 1
    private var quoteLine = 1
    /// The last byte was a CR: an LF right after it ends the same line.
    private var afterCR = false

    /// The longest field and the most fields a row may have. A reading's field is a number, a time, a name
    /// or a comment (hmon keeps at most 10,000 bytes of a reading); past these the file is no CSV of
    /// readings, and a 100 MiB row took 2.1 GB before it was refused.
    static let maxFieldBytes = 1 << 16
    static let maxFields = 256

    init(delimiter: UInt8 = UInt8(ascii: ",")) {
        self.delimiter = delimiter
    }

    /// The separator of a file that starts with `head`: a semicolon when its first line that has either has
    /// more semicolons than commas outside quotes ("Datum;Gewicht" or "DATE;TIME;WEIGHT"), else a comma.
    static func delimiter(ofFileStartingWith head: some Collection<UInt8>) -> UInt8 {
        var commas = 0, semicolons = 0, inQuotes = false
        for byte in head {
            // A line without either (Libra's `#Version: 6` above its header, a blank one) does not decide.
            if (byte == 0x0A || byte == 0x0D) && !inQuotes {
                if commas + semicolons > 0 { break }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inQuotes.toggle()
            case UInt8(ascii: ",") where !inQuotes: commas += 1
            case UInt8(ascii: ";") where !inQuotes: semicolons += 1
            default: break
            }
        }
        return semicolons > commas ? UInt8(ascii: ";") : UInt8(ascii: ",")
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ onRow: ([String], Int) throws -> Void) throws {
        var start = 0
        if atFileStart && !bytes.isEmpty {
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
            atFileStart = false
        }
        for i in start..<bytes.count {
            try take(bytes[i], onRow)
        }
    }

    mutating func finish(_ onRow: ([String], Int) throws -> Void) throws {
        if quoteSeen { quoteSeen = false; inQuotes = false }
        if inQuotes {
            throw ImportLineProblem(line: quoteLine, message: "a quoted field that is never closed")
        }
        if !field.isEmpty || !row.isEmpty { try endRow(onRow) }
    }

    private mutating func take(_ c: UInt8, _ onRow: ([String], Int) throws -> Void) throws {
        let crlf = afterCR && c == 0x0A
        afterCR = c == 0x0D
        if crlf {
            // The CR already ended the line (or, in quotes, was kept and counted).
            if inQuotes && !quoteSeen { try append(c) }
            return
        }
        if quoteSeen {
            quoteSeen = false
            if c == UInt8(ascii: "\"") { try append(c); return }
            inQuotes = false
        }
        if inQuotes {
            if c == UInt8(ascii: "\"") { quoteSeen = true; return }
            if c == 0x0A || c == 0x0D { line += 1 }
            try append(c)
            return
        }
        switch c {
        case delimiter:
            try endField()
        case 0x0A, 0x0D:
            try endRow(onRow)
            line += 1
            rowLine = line
        case UInt8(ascii: "\"") where field.isEmpty && !fieldIsQuoted:
            inQuotes = true
            fieldIsQuoted = true
            quoteLine = line
        default:
            try append(c)
        }
    }

    private mutating func append(_ c: UInt8) throws {
        guard field.count < Self.maxFieldBytes else {
            throw ImportLineProblem(line: rowLine, message: "a field longer than \(Self.maxFieldBytes >> 10) KB: not a CSV of readings")
        }
        field.append(c)
    }

    private mutating func endField() throws {
        guard row.count < Self.maxFields else {
            throw ImportLineProblem(line: rowLine, message: "a row of more than \(Self.maxFields) fields: not a CSV of readings")
        }
        var text = String(decoding: field, as: UTF8.self)
        if !fieldIsQuoted { text = text.trimmingSpaces }
        row.append(text)
        field.removeAll(keepingCapacity: true)
        fieldIsQuoted = false
    }

    private mutating func endRow(_ onRow: ([String], Int) throws -> Void) throws {
        try endField()
        defer { row.removeAll(keepingCapacity: true) }
        // A blank line is no row.
        if row.count == 1 && row[0].isEmpty { return }
        try onRow(row, rowLine)
    }
}

/// A problem on a line of a text file, before the file name is attached.
struct ImportLineProblem: Error {
    var line: Int
    var message: String
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
