import HealthViewModels
import Terminal

/// The command palette's part of the dashboard: what it offers, and what Enter, a click and its keys do.
extension Dashboard {
    /// Actions the palette leaves out: moving through a list is what the arrows are for.
    private static let notInPalette: Set<Action> = [.up, .down, .pageUp, .pageDown, .halfPageUp, .halfPageDown, .palette,
                                                    .nextTab, .previousTab, .back]

    /// Everything the palette can do now: a day typed, on a table screen; each screen; each device (the
    /// devices screen with it chosen); the keys of the screen on show; the keys that work everywhere. Read
    /// from the same tables the keys are (`[keys]` applied), so the two agree.
    var paletteEntries: [PaletteEntry] {
        var entries: [PaletteEntry] = []
        let typed = palette?.field.text.trimmingCharacters(in: .whitespaces) ?? ""
        if let seekable = current as? any SeekableScreen, !typed.isEmpty, let seek = TableSeek.day(typed: typed, today: seekable.today) {
            entries.append(PaletteEntry(title: "go to \(typed) on \(current.title)", group: "date", keys: "t", target: .seek(seek)))
        }
        for (index, screen) in screens.enumerated() {
            entries.append(PaletteEntry(title: screen.title, group: "screen", keys: tabKey(number: index + 1) ?? "",
                                        target: .action(.showTab(index + 1)), alias: screen.id.rawValue))
        }
        for device in app.devices.devices {
            entries.append(PaletteEntry(title: device.name, group: "device", keys: "", target: .device(device.id)))
        }
        let ids = screens.map(\.id)
        let own = bindings(of: current).filter { !Self.notInPalette.contains($0.action) }
        entries += own.map { PaletteEntry(title: $0.help, group: current.title, keys: $0.keyNames, target: .action($0.action),
                                          alias: KeyRemap.name(of: $0.action, screens: ids)) }
        let ownActions = Set(own.map(\.action))
        entries += globalBindings.filter { binding in
            !Self.notInPalette.contains(binding.action) && !ownActions.contains(binding.action)
                && !screens.indices.contains { binding.action == .showTab($0 + 1) }
        }.map { PaletteEntry(title: $0.help, group: "everywhere", keys: $0.keyNames, target: .action($0.action),
                             alias: KeyRemap.name(of: $0.action, screens: ids)) }
        return entries
    }

    /// The key that shows tab `number` (from 1), as `[keys]` leaves it: its digit by default; nil when none does.
    func tabKey(number: Int) -> String? {
        globalBindings.first { $0.action == .showTab(number) }?.keys.first?.description
    }

    /// The entries the palette's line finds, best first.
    var paletteMatches: [PaletteEntry] {
        palette?.matches(paletteEntries, recent: recentPaletteEntries) ?? []
    }

    func performInPalette(_ action: Action) -> Outcome {
        switch action {
        case .submit:
            let matches = paletteMatches
            guard let chosen = palette.map({ min($0.selected, matches.count - 1) }), chosen >= 0 else {
                let typed = palette?.field.text.prefix(30) ?? ""
                palette?.problem = "nothing matches \"\(typed)\": Backspace to widen, Esc to close"
                return .keepGoing
            }
            return runPaletteEntry(matches[chosen])
        case .cancel:
            palette = nil
        case .down:
            palette?.move(by: 1, count: paletteMatches.count)
        case .up:
            palette?.move(by: -1, count: paletteMatches.count)
        default:
            if let edit = TextEdit(action) { palette?.edit(edit) }
        }
        return .keepGoing
    }

    /// A click on an entry runs it; a click elsewhere keeps the palette open.
    func clickInPalette(_ event: MouseEvent) -> Outcome {
        guard case .click = event.action, let palette else { return .keepGoing }
        let matches = paletteMatches
        guard let index = PaletteOverlay.entry(at: Point(x: event.x, y: event.y), in: Self.contentArea(of: size),
                                               entries: matches.count, selected: palette.selected) else { return .keepGoing }
        return runPaletteEntry(matches[index])
    }

    /// Closes the palette, remembers the entry as recent, and does what its key would.
    private func runPaletteEntry(_ entry: PaletteEntry) -> Outcome {
        palette = nil
        recentPaletteEntries.removeAll { $0 == entry.title }
        recentPaletteEntries.insert(entry.title, at: 0)
        if recentPaletteEntries.count > 8 { recentPaletteEntries.removeLast() }
        switch entry.target {
        case .action(let action):
            return perform(action)
        case .seek(let seek):
            if let screen = current as? any SeekableScreen { run(screen.seek(seek)) }
            return .keepGoing
        case .device(let id):
            run(show(.devices))
            app.devices.select(deviceID: id)
            return .keepGoing
        }
    }
}
