import TesseraNumbers

/// The digits of a JSON number as they are read, for the exact conversion of the common case
/// without going through text: a significand of at most 2^53 scaled by a power of ten of at
/// most 22 is one IEEE 754 multiplication or division of two exact doubles, so its single
/// rounding gives the correctly rounded double, the one `Double(String)` gives (Clinger's
/// fast path). Anything else (more digits, larger exponents) is left to `Double(String)`.
struct DecimalDigits {
  /// The digits read so far, as an integer (leading zeros add nothing).
  private(set) var significand: UInt64 = 0
  /// The power of ten the significand is scaled by.
  var exponent = 0
  /// False once the digits no longer fit the exact path.
  var isExact = true

  /// The powers of ten that doubles hold exactly, 10^0 … 10^22.
  private static let powersOfTen: [Double] = (0...22).map { power in
    (0..<power).reduce(1.0) { product, _ in product * 10 }
  }

  /// Appends one ASCII digit.
  mutating func append(_ digit: UInt8) {
    guard isExact else { return }
    let (times10, overflowTimes) = significand.multipliedReportingOverflow(by: 10)
    let (sum, overflowSum) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
    guard !overflowTimes, !overflowSum, sum <= 1 << 53 else {
      isExact = false
      return
    }
    significand = sum
  }

  /// The magnitude, when it can be made exactly; nil otherwise.
  var exactValue: Double? {
    guard isExact else { return nil }
    if significand == 0 { return 0 }
    guard abs(exponent) <= 22 else { return nil }
    let scale = DecimalDigits.powersOfTen[abs(exponent)]
    return exponent >= 0 ? Double(significand) * scale : Double(significand) / scale
  }
}
