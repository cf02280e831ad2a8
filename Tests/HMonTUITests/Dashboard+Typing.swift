@testable import HMonTUI

extension Dashboard {
    /// Types `text` a key at a time, as a person at the terminal does.
    func type(_ text: String) async {
        for character in text { _ = await press(.char(character)) }
    }
}
