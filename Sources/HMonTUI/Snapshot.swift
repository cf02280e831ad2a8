import HealthViewModels
import Terminal

/// `hmon snapshot`: one frame of a screen as plain text, drawn on the in-memory canvas.
public enum SnapshotScreen: String, CaseIterable, Sendable {
    case signin, devices, weights, energy, help
}

extension Dashboard {
    /// Brings a dashboard to `screen` (signing in must already be done for all but `signin`)
    /// and returns the frame at `size` as plain text, one line per row.
    public func snapshot(of screen: SnapshotScreen, size: Size) async -> String {
        self.size = size
        switch screen {
        case .signin:
            break
        case .devices, .help:
            _ = perform(.showDevices)
        case .weights:
            _ = perform(.showWeights)
        case .energy:
            _ = perform(.showEnergy)
        }
        await settle()
        if screen == .help && !ui.showsHelp { _ = perform(.help) }
        let canvas = GridCanvas(size: size)
        draw(on: canvas)
        return canvas.renderPlain()
    }
}
