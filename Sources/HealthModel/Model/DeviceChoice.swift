/// Which device a reading goes to when nobody names one.
extension Array where Element == Device {
    /// The first of these devices whose type's manifest has `field`: a weight goes to the first
    /// scale, a meal to the first food log. A device whose type is not in `manifests` is passed over.
    ///
    /// - Parameter manifests: the manifests by device type id.
    public func first(recording field: String, manifests: [String: Manifest]) -> Device? {
        first { manifests[$0.dtid]?.field(field) != nil }
    }
}
