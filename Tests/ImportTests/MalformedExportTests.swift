import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// A malformed export stops the import at the first bad place, with file, line and column.
@Suite struct MalformedExportTests {
    /// The export with `broken` as its records; the records start on line `bodyLine`.
    static func export(_ broken: String) -> String {
        AppleHealthXML.document(broken)
    }
    static let bodyLine = AppleHealthXML.document("").components(separatedBy: "\n").firstIndex { $0.hasPrefix("<HealthData") }! + 4

    @Test func anUnterminatedAttributeValueIsReportedWhereItStarts() throws {
        let folder = try TempFolder()
        let file = try folder.write("export.xml", Self.export("""
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" startDate="2024-01-02 07:15:00 +0100" value="72.4/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" startDate="2024-01-03 07:15:00 +0100" value="72.1"/>
        """))
        #expect(importFailure(file) == "export.xml:\(Self.bodyLine):104: unterminated attribute value")
    }

    @Test(arguments: [
        ("<Record type=\"HKQuantityTypeIdentifierBodyMass\" value=\"1 &amp 2\"/>", "bad entity \"&amp 2\" (write & as &amp;)"),
        ("<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"&#xZZ;\"/>", "bad entity \"&#xZZ;\" (write & as &amp;)"),
        ("<Record type=\"HKQuantityTypeIdentifierStepCount\" value=3/>", "the value of attribute value is not in quotes"),
        ("<Record type=\"HKQuantityTypeIdentifierStepCount\" value/>", "attribute value has no value"),
        // A kind hmon does not keep, so the end tag is what is wrong, not a missing value.
        ("<Record type=\"HKQuantityTypeIdentifierHeartRate\"><MetadataEntry/></Workout>", "</Workout> does not match <Record>"),
        ("<Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"kg\" startDate=\"2024-01-02 07:15:00 +0100\" value=\"7o.2\"/>",
         "bad number \"7o.2\" in a BodyMass record"),
        ("<Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"kg\" startDate=\"2024-02-30 07:15:00 +0100\" value=\"70\"/>",
         "bad date \"2024-02-30 07:15:00 +0100\" in a BodyMass record (expected like 2016-04-18 08:25:32 -0700)"),
        ("<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"1\"", "unterminated <Record> tag"),
    ])
    func aBrokenRecordStopsTheImportWithWhatIsWrong(record: String, problem: String) throws {
        let folder = try TempFolder()
        let file = try folder.write("export.xml", Self.export(" " + record))
        let message = try #require(importFailure(file))
        #expect(message.hasPrefix("export.xml:\(Self.bodyLine):"), "\(message)")
        #expect(message.hasSuffix(": " + problem), "\(message)")
    }

    @Test func aFileCutInTheMiddleOfARecordIsTruncated() throws {
        let folder = try TempFolder()
        let whole = Self.export(AppleHealthXML.record("BodyMass", "72.4", unit: "kg", at: "2024-01-02 07:15:00 +0100"))
        let cut = String(whole.prefix(whole.count - 60))
        let message = try #require(importFailure(try folder.write("export.xml", cut)))
        #expect(message.hasPrefix("export.xml:\(Self.bodyLine):2: the file ends inside a <Record> tag"), "\(message)")
    }

    @Test func aFileCutBetweenRecordsIsTruncatedToo() throws {
        let folder = try TempFolder()
        let whole = Self.export(AppleHealthXML.record("BodyMass", "72.4", unit: "kg", at: "2024-01-02 07:15:00 +0100"))
        let cut = whole.replacingOccurrences(of: "</HealthData>\n", with: "")
        let message = try #require(importFailure(try folder.write("export.xml", cut)))
        #expect(message.contains("the file ends before </HealthData>: it is truncated"), "\(message)")
    }

    @Test func anotherXMLDocumentIsNotAnExport() throws {
        let folder = try TempFolder()
        let file = try folder.write("export.xml", "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel/></rss>\n")
        #expect(importFailure(file) == "export.xml:2:1: not an Apple Health export: the root element is <rss>, not <HealthData>")
    }

    /// Issue 29, case 10: text longer than a chunk was held until it passed 16 MB, so 1 GiB of white space
    /// was refused as "a tag or comment longer than 16 MB". Text is checked and let go chunk by chunk; a
    /// reference cut by a chunk's edge is completed by the next chunk.
    @Test func textLongerThanTheTagLimitIsNoTagAndAReferenceAcrossChunksIsWhole() throws {
        let folder = try TempFolder()
        let spaces = String(repeating: " ", count: 20 << 20)
        let onlySpace = try #require(importFailure(try folder.write("export.xml", "<?xml version=\"1.0\"?>\n" + spaces)))
        #expect(onlySpace.hasSuffix("no XML element in the file"), "\(onlySpace)")
        let emptyRoot = try folder.write("export.xml", Self.export(spaces))
        #expect(importFailure(emptyRoot) == nil, "white space inside the root is no error")
        // 20 MB of text inside the root, with references every so often, one of them across every chunk edge.
        let text = String(repeating: "x &amp; y &#x41; ", count: (20 << 20) / 17)
        let file = try folder.write("export.xml", Self.export(text + "<Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"kg\" "
                                                               + "startDate=\"2024-01-02 07:15:00 +0100\" value=\"72.4\"/>"))
        var weights: [Double] = []
        _ = try Importer.read(file, timeZone: TimeZone(identifier: "UTC")!) { reading in weights.append(reading.value) }
        #expect(weights == [72.4])
    }

    /// Issue 29, case 4: nesting was unbounded (and quadratic): 1 GiB of nested elements in a 1 MB zip took
    /// 4.6 GB. Past 64 levels (an export has 4) the file is refused where the too-deep element starts.
    @Test func aFileNestedDeeperThanAnyExportIsRefusedWhereItGoesTooDeep() throws {
        let folder = try TempFolder()
        let nested = String(repeating: "<a>", count: 200_000) + String(repeating: "</a>", count: 200_000)
        let message = try #require(importFailure(try folder.write("export.xml", Self.export(nested))))
        // HealthData is the first level, so the 64th <a> is the 65th element.
        #expect(message.hasPrefix("export.xml:\(Self.bodyLine):\(63 * 3 + 1): <a> is nested more than 64 elements deep"), "\(message)")
    }
}
