/// Everything a key can do on the dashboard. The key table maps keys to these; the app performs them.
public enum Action: Hashable, Sendable {
    // Everywhere
    case quit, help, cycleTheme, refresh, back
    case nextTab, previousTab, showDevices, showWeights, showEnergy
    // Lists
    case up, down, pageUp, pageDown, top, bottom
    // Devices
    case open, addDevice, signOut
    // Weights
    case toggleUnit, addReading
    // Energy
    case previousDay, nextDay, today, logEnergy
    // Forms and prompts
    case submit, nextField, previousField, deleteBackward, cancel, switchForm
    // The sign-out question
    case confirm
}
