import Foundation

/// An arrival's writes in order, each made when it is asked for. A first sync's backfill is hundreds of
/// thousands of writes, applied in one transaction (`ReadingStore.applyArrival`): made one at a time from
/// what the source already holds, they are never all held at once as messages.
public protocol ArrivalWriteList: Sendable {
    var count: Int { get }
    /// The write at `index` (0..<count); asked for more than once, it is the same write each time.
    func write(at index: Int) -> ArrivalWrite
    /// The id the write at `index` puts or deletes, for a list that can say so without making the write.
    func readingID(at index: Int) -> String
    /// The id the write at `index` deletes; nil for a put.
    func deletedID(at index: Int) -> String?
}

extension ArrivalWriteList {
    public func readingID(at index: Int) -> String { write(at: index).readingID }

    public func deletedID(at index: Int) -> String? {
        guard case .delete(let mid) = write(at: index) else { return nil }
        return mid
    }
}

extension Array: ArrivalWriteList where Element == ArrivalWrite {
    public func write(at index: Int) -> ArrivalWrite { self[index] }
}

/// Some of another list's writes, in its order: those an arrival still has to apply after the ones naming
/// readings kept aside were settled on their own.
public struct ArrivalWriteSelection<Base: ArrivalWriteList>: ArrivalWriteList {
    public let base: Base
    /// Places in `base`, ascending.
    public let places: [Int]

    public init(_ base: Base, places: [Int]) {
        self.base = base
        self.places = places
    }

    public var count: Int { places.count }
    public func write(at index: Int) -> ArrivalWrite { base.write(at: places[index]) }
    public func readingID(at index: Int) -> String { base.readingID(at: places[index]) }
    public func deletedID(at index: Int) -> String? { base.deletedID(at: places[index]) }
}
