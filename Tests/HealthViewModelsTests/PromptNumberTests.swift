import Testing
@testable import HealthViewModels

/// The dashboard's prompts read numbers by the core's rule (issue 16, item 7): "72,4" and "72.4", never
/// "nan", "inf", hexadecimal or a number beyond a double.
@Suite struct PromptNumberTests {
    @Test func plainNumbersWithAPointOrACommaAreRead() throws {
        for (text, value) in [("72.4", 72.4), ("72,4", 72.4), ("650", 650.0), ("-0", 0.0)] {
            #expect(try PromptReading.number(in: text, quantity: "a weight in kg", example: "72.4").get() == value, "\(text)")
        }
    }

    @Test(arguments: ["nan", "inf", "Infinity", "0x40", "0x1p6", "1e309", String(repeating: "9", count: 500)])
    func anythingElseIsNotANumber(text: String) {
        switch PromptReading.number(in: text, quantity: "a weight in kg", example: "72.4") {
        case .success(let value): Issue.record("\(text.prefix(20)) read as \(value)")
        case .failure(let problem): #expect(problem.message.hasSuffix("is not a number: type a weight in kg, like 72.4"))
        }
    }
}
