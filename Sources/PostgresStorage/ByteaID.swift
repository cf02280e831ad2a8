import NIOCore
import PostgresNIO
import HealthCore

/// An id as `messages` keeps it on PostgreSQL (schema version 20): `BinaryID`'s bytes in a `bytea`, bound
/// and read back as the id's text. Every statement that compares or writes a reading's `mid`, `sdid`,
/// `sdtid` or `uid` binds a `ByteaID`; a `String` there is refused by PostgreSQL (bytea = text).
struct ByteaID: PostgresNonThrowingEncodable, PostgresArrayEncodable, PostgresDecodable, PostgresArrayDecodable, Hashable {
    var id: String

    init(_ id: String) { self.id = id }

    static var psqlType: PostgresDataType { .bytea }
    static var psqlFormat: PostgresFormat { .binary }
    static var psqlArrayType: PostgresDataType { .byteaArray }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeBytes(BinaryID.encode(id))
    }

    init<JSONDecoder: PostgresJSONDecoder>(from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
                                           context: PostgresDecodingContext<JSONDecoder>) throws {
        switch (type, format) {
        case (.bytea, .binary):
            id = BinaryID.decode(buffer.readableBytesView)
        case (.text, _), (.varchar, _):
            // A column the migration has not reached still reads.
            id = buffer.readString(length: buffer.readableBytes) ?? ""
        default:
            throw PostgresDecodingError.Code.typeMismatch
        }
    }
}
