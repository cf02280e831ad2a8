import Foundation
import HealthCore
import HealthModel

extension ReadingKind {
    /// How imports count and check the kind (`ReadingKind.imported`); only kinds imports produce are asked.
    private var importing: ImportedKind {
        guard let imported else { preconditionFailure("no import produces readings of kind \(name)") }
        return imported
    }

    /// How the end-of-import summary names `count` readings of this kind ("1 weight", "2 weights").
    public func label(count: Int) -> String { count == 1 ? importing.one : importing.many }

    /// How the end-of-import summary names readings of this kind.
    public var importLabel: String { importing.many }

    /// The singular name used in skip reasons ("step count").
    var rangeName: String { importing.one }

    /// The plausible range of one reading in `importUnit`; values outside are skipped, not fatal.
    public var saneRange: ClosedRange<Double> { importing.range }

    /// The unit imports convert readings of this kind to (cm for a height, which the profile keeps).
    public var importUnit: String { importing.unit }

    /// The kinds imports produce, in table order.
    public static let importedKinds = allCases.filter { $0.imported != nil }
}

/// One reading found in an export, already in hmon's units (kg, cm, kcal, ms).
public struct ImportedReading: Sendable, Equatable {
    public var kind: ReadingKind
    /// Where it came from, as the export names it ("Apple Watch", "Withings", "Jörg's iPhone");
    /// readings land on a device of this name.
    public var source: String
    /// When it was taken (the sample's start), ms since the epoch.
    public var timestamp: Int64
    /// The value of `kind.field`.
    public var value: Double
    /// Further fields of the same message (a scale's body fat or muscle mass); usually empty.
    public var extras: [String: Double]
    /// Further text fields of the same message (why hmon refused an HRV record's beats); usually empty.
    public var texts: [String: String]
    /// A total for a span (a day's energy summed from a part of a download): one reading per source, kind and
    /// span, whatever its value. An export of half a day followed by one of the whole day replaces the first
    /// figure instead of adding a second one beside it, so its id leaves the value out and the writers replace
    /// what the span held.
    public var isSpanTotal: Bool

    public init(kind: ReadingKind, source: String, timestamp: Int64, value: Double, extras: [String: Double] = [:],
                texts: [String: String] = [:], isSpanTotal: Bool = false) {
        self.kind = kind
        self.source = source
        self.timestamp = timestamp
        self.value = value
        self.extras = extras
        self.texts = texts
        self.isSpanTotal = isSpanTotal
    }
}
