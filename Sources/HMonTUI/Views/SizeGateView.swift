import Terminal

/// "Terminal too small: have 52×14, need 60×16", centred, instead of a broken layout.
struct SizeGateView {
    let have: Size
    let need: Size

    func draw(on canvas: Canvas) {
        let rect = Rect(canvas.size)
        let headline = "Terminal too small: have \(have), need \(need)"
        let lines = DisplayWidth.of(headline) <= rect.width
            ? [headline, "enlarge the window, or q to quit"]
            : ["Terminal too small:", "have \(have), need \(need)", "enlarge, or q to quit"]
        let top = max(0, (rect.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            canvas.text(line, centredIn: rect, row: top + i, style: i == 0 ? Style(.warning, bold: true) : .dim)
        }
    }
}
