/// Reads a FIT file (Garmin's Flexible and Interoperable Data Transfer format) into its data messages.
///
/// The whole file is checked before anything is answered: header, every record, and the CRCs. A problem
/// throws `FITProblem` with the byte offset where it is, and no message of that file is kept. Chained FIT
/// files (one after another in a file) are read in turn. Developer fields are skipped by their size.
enum FITDecoder {
    static func messages(_ bytes: [UInt8]) throws -> [FITMessage] {
        guard !bytes.isEmpty else { throw FITProblem(offset: 0, message: "the file is empty, not a FIT file") }
        var messages: [FITMessage] = []
        var start = 0
        while start < bytes.count {
            messages += try part(bytes, from: start, next: &start, fileIDOnly: false)
        }
        return messages
    }

    /// The file's `file_id` message (its first, by the protocol), read without going through the rest
    /// of the file: what a watch's folder holds is told by it, and most of its files are not read further.
    /// Nil when the first data message is another.
    static func fileID(_ bytes: [UInt8]) throws -> FITMessage? {
        guard !bytes.isEmpty else { throw FITProblem(offset: 0, message: "the file is empty, not a FIT file") }
        var next = 0
        return try part(bytes, from: 0, next: &next, fileIDOnly: true).first { $0.global == FITProfile.FileID.message }
    }

    /// A local message type's definition: the layout of the data messages that follow under that type.
    private struct Definition {
        struct Field {
            var number: UInt8
            var size: Int
            var type: FITBaseType?
        }
        var global: UInt16
        var bigEndian: Bool
        var fields: [Field]
        /// The developer fields' total size: skipped, as their meaning is in the file's own descriptions.
        var developerBytes: Int
    }

    /// One FIT file starting at `start`; `next` is set to where the following one would begin.
    /// With `fileIDOnly`, stops at the first data message, leaving the length and CRC checks to a whole read.
    private static func part(_ bytes: [UInt8], from start: Int, next: inout Int, fileIDOnly: Bool) throws -> [FITMessage] {
        let header = try FITHeader(bytes, at: start)
        let dataStart = start + header.size
        var dataEnd = dataStart + header.dataSize
        if fileIDOnly {
            dataEnd = min(dataEnd, bytes.count)
        } else {
            try checkWhole(bytes, start: start, dataEnd: dataEnd)
            next = dataEnd + 2
        }
        var definitions: [UInt8: Definition] = [:]
        var messages: [FITMessage] = []
        var lastTimestamp: UInt32?
        var at = dataStart
        while at < dataEnd {
            let recordStart = at
            let recordHeader = bytes[at]
            at += 1
            var local: UInt8
            var compressedOffset: UInt8?
            if recordHeader & 0x80 != 0 {
                // Compressed-timestamp header: local type in bits 5–6, seconds (mod 32) in bits 0–4.
                local = (recordHeader >> 5) & 0x03
                compressedOffset = recordHeader & 0x1F
            } else {
                local = recordHeader & 0x0F
                if recordHeader & 0x40 != 0 {
                    definitions[local] = try definition(bytes, at: &at, end: dataEnd, recordStart: recordStart,
                                                        developer: recordHeader & 0x20 != 0)
                    continue
                }
            }
            guard let layout = definitions[local] else {
                throw FITProblem(offset: recordStart, message: "a data message of local message type \(local) comes before any definition of that type")
            }
            let length = layout.fields.reduce(0) { $0 + $1.size } + layout.developerBytes
            guard length <= dataEnd - at else {
                throw FITProblem(offset: recordStart, message: "a data message of local message type \(local) needs \(length) bytes but the records end \(dataEnd - at) bytes on")
            }
            var message = FITMessage(global: layout.global, fields: [:], offset: recordStart)
            for field in layout.fields {
                if let value = FITFieldValue.decode(bytes[at..<(at + field.size)], type: field.type, bigEndian: layout.bigEndian) {
                    message.fields[field.number] = value
                }
                at += field.size
            }
            at += layout.developerBytes
            if let compressedOffset, let last = lastTimestamp {
                // The offset is the low five bits of the time; a smaller one than the last time's means they rolled over.
                let lastLow = UInt8(last & 0x1F)
                var time = (last & ~0x1F) | UInt32(compressedOffset)
                if compressedOffset < lastLow { time &+= 0x20 }
                lastTimestamp = time
                message.fields[FITProfile.timestampField] = .unsigned([UInt64(time)])
            } else if compressedOffset != nil {
                throw FITProblem(offset: recordStart, message: "a compressed-timestamp message comes before any full timestamp to count from")
            } else if case .unsigned(let values)? = message.fields[FITProfile.timestampField], let time = values.first,
                      let exact = UInt32(exactly: time) {
                lastTimestamp = exact
            }
            messages.append(message)
            if fileIDOnly { break }
        }
        return messages
    }

    /// The file is as long as its header says, and its CRC matches its bytes.
    private static func checkWhole(_ bytes: [UInt8], start: Int, dataEnd: Int) throws {
        guard dataEnd + 2 <= bytes.count else {
            throw FITProblem(offset: bytes.count, message: "the file is truncated: its header says \(dataEnd - start) bytes of header and records and a 2-byte CRC, but the file ends \(dataEnd + 2 - bytes.count) bytes short")
        }
        let stored = UInt16(bytes[dataEnd]) | UInt16(bytes[dataEnd + 1]) << 8
        let computed = FITCRC.of(bytes[start..<dataEnd])
        guard stored == computed else {
            throw FITProblem(offset: dataEnd, message: "the file's CRC is \(FITCRC.hex(stored)) but its contents give \(FITCRC.hex(computed)): the file is damaged")
        }
    }

    private static func definition(_ bytes: [UInt8], at: inout Int, end: Int, recordStart: Int, developer: Bool) throws -> Definition {
        func overrun() -> FITProblem {
            FITProblem(offset: recordStart, message: "a definition message runs past the end of the records (byte \(end))")
        }
        guard end - at >= 5 else { throw overrun() }
        let architecture = bytes[at + 1]
        guard architecture <= 1 else {
            throw FITProblem(offset: at + 1, message: "a definition names architecture \(architecture); FIT has only 0 (little-endian) and 1 (big-endian)")
        }
        let bigEndian = architecture == 1
        let global = bigEndian ? UInt16(bytes[at + 2]) << 8 | UInt16(bytes[at + 3]) : UInt16(bytes[at + 3]) << 8 | UInt16(bytes[at + 2])
        let count = Int(bytes[at + 4])
        at += 5
        guard end - at >= count * 3 else { throw overrun() }
        var fields: [Definition.Field] = []
        for _ in 0..<count {
            let size = Int(bytes[at + 1])
            fields.append(Definition.Field(number: bytes[at], size: size, type: FITBaseType(definitionByte: bytes[at + 2])))
            at += 3
        }
        var developerBytes = 0
        if developer {
            guard end - at >= 1 else { throw overrun() }
            let developerCount = Int(bytes[at])
            at += 1
            guard end - at >= developerCount * 3 else { throw overrun() }
            for _ in 0..<developerCount {
                developerBytes += Int(bytes[at + 1])
                at += 3
            }
        }
        return Definition(global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
    }
}
