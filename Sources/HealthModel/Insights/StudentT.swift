import Foundation

/// The Student t distribution's two-sided p-value, through the regularized incomplete beta function.
///
/// `P(|T| ≥ t)` with `ν` degrees of freedom is `I_x(ν/2, 1/2)` with `x = ν / (ν + t²)` (Abramowitz &
/// Stegun 26.7.1 with 26.5.27). The incomplete beta is evaluated by its continued fraction with the
/// modified Lentz method, as *Numerical Recipes* (Press et al., 3rd ed., §6.4, `betacf`) gives it: the
/// fraction converges fast for `x < (a+1)/(a+b+2)`, and the symmetry `I_x(a,b) = 1 − I_{1−x}(b,a)` covers
/// the other side. No numerics package is in the dependency set, and this is 40 lines.
public enum StudentT {
    /// Two-sided p-value of a t statistic with `degreesOfFreedom` (> 0).
    public static func twoSidedP(t: Double, degreesOfFreedom df: Double) -> Double {
        guard t.isFinite else { return t.isNaN ? .nan : 0 }
        return regularizedIncompleteBeta(x: df / (df + t * t), a: df / 2, b: 0.5)
    }

    /// `I_x(a, b)` for `0 ≤ x ≤ 1`, `a, b > 0`.
    public static func regularizedIncompleteBeta(x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        // ln of x^a (1−x)^b / B(a, b), the factor in front of the continued fraction.
        let lnFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)
        if x < (a + 1) / (a + b + 2) {
            return exp(lnFront) * continuedFraction(x: x, a: a, b: b) / a
        }
        return 1 - exp(lnFront) * continuedFraction(x: 1 - x, a: b, b: a) / b
    }

    /// Numerical Recipes' `betacf`: the continued fraction for `I_x(a, b)` by modified Lentz.
    private static func continuedFraction(x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300, epsilon = 1e-16
        let qab = a + b, qap = a + 1, qam = a - 1
        var c = 1.0
        var d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...10_000 {
            let m = Double(m), m2 = 2 * m
            // The even step of the fraction.
            var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            // The odd step.
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < epsilon { break }
        }
        return h
    }
}
