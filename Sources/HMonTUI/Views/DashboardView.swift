import HealthViewModels
import Terminal

/// The whole frame: the tab bar, the current screen, the status bar and any overlay,
/// or the size gate when the terminal is too small. Draws model state only.
@MainActor
public struct DashboardView {
    public static let minimumSize = Size(width: 60, height: 16)

    public let app: AppModel
    public let ui: UIState

    public init(app: AppModel, ui: UIState) {
        self.app = app
        self.ui = ui
    }

    public func draw(on canvas: Canvas) {
        canvas.clear(.text)
        let size = canvas.size
        guard size.fits(Self.minimumSize) else {
            SizeGateView(have: size, need: Self.minimumSize).draw(on: canvas)
            return
        }
        let content = Rect(x: 0, y: 1, width: size.width, height: size.height - 2)
        TabBar(app: app).draw(on: canvas, width: size.width)
        switch app.screen {
        case .signIn: SignInView(model: app.signIn).draw(on: canvas, in: content)
        case .devices: DevicesView(model: app.devices).draw(on: canvas, in: content)
        case .weights:
            if let weights = app.weights { WeightsView(model: weights).draw(on: canvas, in: content) }
        case .energy: EnergyView(model: app.energy).draw(on: canvas, in: content)
        }
        StatusBar(app: app, ui: ui).draw(on: canvas, row: size.height - 1, width: size.width)
        if app.screen == .devices, let form = app.devices.adding {
            AddDeviceOverlay(form: form).draw(on: canvas, in: content)
        }
        if app.isConfirmingSignOut {
            ConfirmOverlay(question: "Sign out of \(app.user?.name ?? "hmon")?", keys: KeyMap.confirm)
                .draw(on: canvas, in: content)
        }
        if ui.showsHelp {
            HelpOverlay(screen: app.screen, hasPrompt: hasPrompt).draw(on: canvas, in: content)
        }
    }

    private var hasPrompt: Bool {
        switch app.screen {
        case .weights: app.weights?.prompt != nil
        case .energy: app.energy.prompt != nil
        default: false
        }
    }

    /// The table height the weights view has at a canvas size, so scrolling keeps the selection in view.
    public static func weightRowsVisible(in size: Size) -> Int {
        WeightsView.tableRows(in: Rect(x: 0, y: 1, width: size.width, height: size.height - 2))
    }
}
