import Testing
@testable import HealthViewModels

/// The numbers every table cell shows ("72.4"), written by `CNumberText` through the C library's
/// `vsnprintf`. Each expected text is worked out by hand from the double's exact binary value, so a change
/// of rounding, sign or digit count fails here; comparing with `String(format:)` could not, as both are the
/// same C library underneath.
@Suite struct NumberTextTests {
    @Test(arguments: [
        // Zero has its one decimal.
        (0, "0.0"),
        // 72.4 is 72.40000000000000568… in binary: nothing to round.
        (72.4, "72.4"),
        // 0.05 is 0.05000000000000000277…: just above the half, so up.
        (0.05, "0.1"),
        // 0.15 is 0.14999999999999999444…: just below the half, so down, although the decimal text ends in 5.
        (0.15, "0.1"),
        // 0.25 is exact: a true tie goes to the even digit (2), not up.
        (0.25, "0.2"),
        // 72.45 is 72.45000000000000284…: up. 72.449999 stays below.
        (72.45, "72.5"),
        (72.449999, "72.4"),
        // 99.95 is 99.95000000000000284…: up, carrying into a new digit.
        (99.95, "100.0"),
        // A negative tie (-3.25 is exact) goes to the even digit too; -3.35 is -3.35000000000000008…: away from zero.
        (-3.25, "-3.2"),
        (-3.35, "-3.4"),
        // A negative that rounds to zero keeps its sign, as C prints it: a fall of 0.04 kg reads "-0.0".
        (-0.04, "-0.0"),
        // Large values keep every whole digit: 1000000.05 is 1000000.05000000004…, so up.
        (1_000_000.05, "1000000.1"),
        // 49,999.95 (just under the 50,000 kcal a reading may hold) is 49999.94999999999709…: down.
        (49_999.95, "49999.9"),
    ])
    func oneDecimalRoundsTheExactBinaryValue(value: Double, shown: String) {
        #expect(CNumberText.fixed(value, decimals: 1) == shown)
    }

    @Test func theDecimalsCountIsHowManyDigitsFollowThePoint() {
        // None: no point at all; 2.5 is a tie, so the even 2; 3.5 likewise goes to 4.
        #expect(CNumberText.fixed(2.5, decimals: 0) == "2")
        #expect(CNumberText.fixed(3.5, decimals: 0) == "4")
        #expect(CNumberText.fixed(49_999.95, decimals: 0) == "50000")
        // Two: 1.005 is 1.00499999999999989…, so down, whatever the decimal text suggests.
        #expect(CNumberText.fixed(1.005, decimals: 2) == "1.00")
        #expect(CNumberText.fixed(-0.04, decimals: 2) == "-0.04")
        // Three pads with zeros.
        #expect(CNumberText.fixed(72.4, decimals: 3) == "72.400")
        #expect(CNumberText.fixed(0, decimals: 3) == "0.000")
    }

    @Test func aValueWithMoreDigitsThanTheUsualBufferIsWrittenWhole() {
        // 1e70 has 71 digits before the point (its exact binary value is 10000000000000000725…), more
        // than the 64 bytes the usual case uses; the text must still be whole, with its ".0".
        let text = CNumberText.fixed(1e70, decimals: 1)
        #expect(text.count == 71 + 2)
        #expect(text.hasPrefix("1000000000000000"))
        #expect(text.hasSuffix(".0"))
        // The largest double: 309 digits, ".0".
        #expect(CNumberText.fixed(.greatestFiniteMagnitude, decimals: 1).count == 309 + 2)
    }
}
