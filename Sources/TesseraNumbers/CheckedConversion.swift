/// A number from outside that cannot become the integer a reader needs: which field, the
/// value found and what was expected.
public struct NumberConversionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The field the number came from (`camera.zoom`, `--marker z`, `size`).
  public let field: String
  /// The number found.
  public let value: Double
  /// What the field takes, in words ("an integer in 0…4096").
  public let expected: String

  public init(field: String, value: Double, expected: String) {
    self.field = field
    self.value = value
    self.expected = expected
  }

  public var description: String { "\(field): expected \(expected), found \(value)" }
}

extension FixedWidthInteger {
  /// `value` rounded toward zero, as `Self(value)` does, but never trapping: values beyond
  /// the type's range become its nearest bound and NaN becomes 0. For numbers worked out
  /// inside Tessera (pixel positions, counts of segments) where a value out of range can only
  /// come from an extreme input that a reader let through; readers use
  /// ``init(checked:field:in:)`` so that such input is refused with a message instead.
  @inlinable
  package init<Source: BinaryFloatingPoint>(clamping value: Source) {
    if value.isNaN {
      self = 0
    } else if value <= Source(Self.min) {
      // Self.min is 0 or −2^(n−1): exact in any binary floating-point type.
      self = Self.min
    } else if value >= Source(Self.max) {
      // Self.max converts to 2^n − 1 or, rounded, 2^n: anything at or above it is out of range
      // or the maximum itself.
      self = Self.max
    } else if Source.significandBitCount <= Double.significandBitCount,
      let whole = Int64(exactly: Double(value).rounded(.towardZero))
    {
      // In range and exactly a Double: the processor's conversion of a whole Double. `Self(value)`
      // here is the generic conversion, which takes the number apart (exponent, significand) and
      // takes about three times as long; every conversion in the package comes through here.
      self = Self(truncatingIfNeeded: whole)
    } else {
      self = Self(value)
    }
  }

  /// `value` as an integer of this type when it has no fraction and lies in `range`; otherwise
  /// a ``NumberConversionError`` naming `field` (NaN and the infinities are refused too).
  @inlinable
  package init<Source: BinaryFloatingPoint>(
    checked value: Source, field: @autoclosure () -> String, in range: ClosedRange<Self> = Self.min...Self.max
  ) throws(NumberConversionError) {
    guard value.isFinite, value.rounded(.towardZero) == value, value >= Source(range.lowerBound),
      value <= Source(range.upperBound), let exact = Self(exactly: value), range.contains(exact)
    else {
      throw NumberConversionError(
        field: field(), value: Double(value), expected: "an integer in \(range.lowerBound)…\(range.upperBound)")
    }
    self = exact
  }

  /// `value` rounded to the nearest integer (halves away from zero) when the result lies in
  /// `range`; otherwise a ``NumberConversionError`` naming `field` (NaN and the infinities are
  /// refused too). For readers that take any number and use it as a whole count.
  @inlinable
  package init<Source: BinaryFloatingPoint>(
    rounding value: Source, field: @autoclosure () -> String, in range: ClosedRange<Self> = Self.min...Self.max
  ) throws(NumberConversionError) {
    let rounded = value.rounded()
    guard rounded.isFinite, rounded >= Source(range.lowerBound), rounded <= Source(range.upperBound),
      let exact = Self(exactly: rounded), range.contains(exact)
    else {
      throw NumberConversionError(
        field: field(), value: Double(value), expected: "a number in \(range.lowerBound)…\(range.upperBound)")
    }
    self = exact
  }
}
