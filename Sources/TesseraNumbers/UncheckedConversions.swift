// Every integer type's conversion from Double and Float, shadowed inside this package by a
// deprecated one: `Int(someDouble)` traps when the value is NaN, infinite or out of range, and
// a value from outside (a scene, a flag, a request, a tile) can be any of those. The compiler
// flags every such call in the package (the build treats the warning as an error), so each one
// says what it means instead: `Int(checked:field:)` where outside input is read,
// `Int(clamping:)` where a value is worked out inside. The shadows themselves clamp, so even a
// call that slipped through cannot trap.
//
// Generated list: every fixed-width integer type from Double and Float.

extension Int {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension Int8 {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension Int16 {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension Int32 {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension Int64 {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt8 {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt16 {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt32 {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt64 {
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Double) { self.init(clamping: value) }
  @available(*, deprecated, message: "unchecked: use init(checked:field:) or init(clamping:)")
  @inlinable package init(_ value: Float) { self.init(clamping: value) }
}
