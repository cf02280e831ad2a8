import Foundation

/// Google Takeout splits a large download into numbered zips beside each other
/// (`takeout-20260320T090000Z-001.zip`, `…-002.zip`), and puts each file whole in one of them. A Fitbit
/// export's files depend on each other across parts (the profile gives every weight its unit; a body fat
/// log belongs to a weigh-in), so the parts are read as one download, whichever of them is named.
enum TakeoutParts {
    /// Every part of the download `zip` belongs to, in order; just `zip` when its name is no Takeout part's.
    static func all(of zip: URL) -> [URL] {
        guard let stem = stem(of: zip.lastPathComponent) else { return [zip] }
        let folder = zip.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let parts = names.filter { Self.stem(of: $0) == stem }.sorted().map { folder.appendingPathComponent($0) }
        return parts.isEmpty ? [zip] : parts
    }

    /// `takeout-20260320T090000Z` of `takeout-20260320T090000Z-001.zip` (also `…Z-1-001.zip`, as newer
    /// downloads are named); nil for any other name.
    static func stem(of name: String) -> String? {
        guard name.lowercased().hasPrefix("takeout-"), name.lowercased().hasSuffix(".zip") else { return nil }
        let base = name.dropLast(4)
        guard let dash = base.lastIndex(of: "-") else { return nil }
        let number = base[base.index(after: dash)...]
        guard number.count == 3, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return String(base[..<dash])
    }
}
