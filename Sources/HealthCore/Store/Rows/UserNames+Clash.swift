import HealthModel

extension UserNames {
    /// Refuses `name` when it clashes with `existing`, the name an engine found for it
    /// (`AccountRows.nameClashing`): `.nameTaken` for the same name after `key`, `.invalidValue` for a
    /// look-alike.
    public static func checkFree(_ name: String, clashingWith existing: String?) throws {
        guard let existing else { return }
        if key(existing) == key(name) { throw HealthError.nameTaken(name) }
        throw HealthError.invalidValue(
            "name \"\(name)\" looks like the existing user name \"\(existing)\" (it mixes letters of another script): choose another")
    }
}
