import HealthModel

/// The checks a merge of one device's readings into another passes on either engine, so both refuse the
/// same inputs with the same words: the readings move as they are, so the device they move to must record
/// every field they carry (a heart rate has no place on a plain scale).
public enum DeviceMergeRules {
    /// Throws when `from` and `into` are the same device.
    public static func checkTwoDevices(_ from: Device, _ into: Device) throws {
        guard from.id != into.id else {
            throw HealthError.invalidValue("\"\(from.name)\" cannot be merged into itself: name two different devices")
        }
    }

    /// Throws when `from`'s readings carry fields `into`'s manifest has no place for.
    public static func checkFields(_ carried: Set<String>, from: Device, into: Device, manifest: Manifest) throws {
        let missing = carried.filter { manifest.field($0) == nil }.sorted()
        guard !missing.isEmpty else { return }
        throw HealthError.invalidValue(
            "\"\(into.name)\" does not record \(missing.joined(separator: ", ")), which readings of \"\(from.name)\" carry: "
                + "merge \"\(into.name)\" into \"\(from.name)\" instead, or into a device that records them (see `hmon device types`)")
    }
}
