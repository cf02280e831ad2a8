import Foundation
import HealthModel

/// How far an import has got, for a progress line.
public struct ImportProgress: Sendable, Equatable {
    /// Bytes of the file read so far (compressed bytes for a zip) and in all.
    public var bytesRead: Int64
    public var totalBytes: Int64
    /// Readings kept so far.
    public var readingsKept: Int

    package init(bytesRead: Int64, totalBytes: Int64, readingsKept: Int) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.readingsKept = readingsKept
    }
}

/// What reading a file found: its format, the counts, and what it says about the person.
public struct ImportResult: Sendable, Equatable {
    public var format: ImportFormat
    public var tally: ImportTally
    public var profile: ImportedProfile

    package init(format: ImportFormat, tally: ImportTally, profile: ImportedProfile) {
        self.format = format
        self.tally = tally
        self.profile = profile
    }
}

/// What an export says about the person (Apple Health's `Me` element and latest height).
public struct ImportedProfile: Sendable, Equatable {
    public var birthDate: Day?
    public var sex: Sex?
    public var heightCm: Double?
    /// When the height was measured, so the latest one wins.
    public var heightTimestamp: Int64?

    public init(birthDate: Day? = nil, sex: Sex? = nil, heightCm: Double? = nil, heightTimestamp: Int64? = nil) {
        self.birthDate = birthDate
        self.sex = sex
        self.heightCm = heightCm
        self.heightTimestamp = heightTimestamp
    }

    public var isEmpty: Bool { birthDate == nil && sex == nil && heightCm == nil }

    /// Keeps the later of two heights.
    package mutating func noteHeight(_ cm: Double, at timestamp: Int64) {
        if heightTimestamp.map({ timestamp >= $0 }) ?? true {
            heightCm = cm
            heightTimestamp = timestamp
        }
    }
}
