/// A FIT file's header: 12 bytes, or 14 with a CRC of the first 12 (0 when the writer did not compute it).
struct FITHeader {
    var size: Int
    var dataSize: Int

    init(_ bytes: [UInt8], at start: Int) throws {
        let left = bytes.count - start
        guard left >= 12 else {
            throw FITProblem(offset: start, message: "the file is truncated: \(left) bytes where a FIT header of at least 12 begins")
        }
        size = Int(bytes[start])
        guard size == 12 || size == 14 else {
            throw FITProblem(offset: start, message: "the header size is \(size); a FIT header is 12 or 14 bytes: not a FIT file")
        }
        guard bytes[(start + 8)..<(start + 12)].elementsEqual(".FIT".utf8) else {
            throw FITProblem(offset: start + 8, message: "no \".FIT\" signature: not a FIT file")
        }
        guard left >= size else {
            throw FITProblem(offset: start, message: "the file is truncated inside its \(size)-byte header")
        }
        dataSize = Int(bytes[start + 4]) | Int(bytes[start + 5]) << 8 | Int(bytes[start + 6]) << 16 | Int(bytes[start + 7]) << 24
        if size == 14 {
            let stored = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            let computed = FITCRC.of(bytes[start..<(start + 12)])
            guard stored == 0 || stored == computed else {
                throw FITProblem(offset: start + 12, message: "the header's CRC is \(FITCRC.hex(stored)) but its bytes give \(FITCRC.hex(computed)): the file is damaged")
            }
        }
    }
}
