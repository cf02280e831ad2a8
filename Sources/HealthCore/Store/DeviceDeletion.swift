import HealthModel

/// What `DeviceStore.deleteDevice` did: whether the device is gone, and how many readings it held (deleted
/// with it, or, when it was kept because it had some, counted so the caller can say how many).
public struct DeviceDeletion: Sendable, Equatable {
    public var deleted: Bool
    public var readings: Int

    public init(deleted: Bool, readings: Int) {
        self.deleted = deleted
        self.readings = readings
    }
}
