import TesseraNumbers

/// The elements of an array a device draws from where they lie in process memory (GL's
/// client-side vertex and index arrays), instead of from a copy in a buffer object.
///
/// The object keeps the only reference the device holds to the array and never changes it, so
/// the array's storage (a heap object) stays where it is and `base` stays valid for as long as
/// the object lives. GL reads client arrays during the draw call that names them; the device
/// keeps the object until the buffer is destroyed, and then points no attribute or index
/// binding at it. Nothing in GL checks a client array's ranges, so the device checks every
/// draw against `byteCount` and, for indices, `largestIndex`.
final class HostArray {
  /// The array, kept alive and unchanged.
  private let elements: Any
  /// Where the first element lies.
  let base: UnsafeRawPointer
  /// The elements' size in bytes.
  let byteCount: Int
  /// Bytes per element.
  let elementSize: Int
  /// For arrays of `UInt32` or `UInt16` indices: the largest, so that a draw can check that
  /// every vertex it reads lies in the vertex arrays bound with it; nil for other elements.
  let largestIndex: Int?

  /// Keeps `elements` (not empty) and the address of their storage.
  init<Element>(_ elements: [Element]) {
    precondition(!elements.isEmpty, "a host array has elements")
    self.elements = elements
    base = elements.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }
    byteCount = elements.count * MemoryLayout<Element>.stride
    elementSize = MemoryLayout<Element>.stride
    // Read in place: a cast such as `elements as? [UInt32]` would copy element by element.
    if Element.self == UInt32.self {
      largestIndex = elements.withUnsafeBytes { HostArray.largest($0.bindMemory(to: UInt32.self)) }
    } else if Element.self == UInt16.self {
      largestIndex = elements.withUnsafeBytes { HostArray.largest($0.bindMemory(to: UInt16.self)) }
    } else {
      largestIndex = nil
    }
  }

  /// The largest of `values` (0 for none).
  private static func largest<Value: FixedWidthInteger & UnsignedInteger>(_ values: UnsafeBufferPointer<Value>)
    -> Int
  {
    var largest: Value = 0
    for value in values { largest = max(largest, value) }
    return Int(largest)
  }

  /// The address `offset` bytes into the array, as GL takes a client array's pointer.
  func address(_ offset: Int) -> Int { Int(bitPattern: base) + offset }

  /// Whether `address` lies in the array.
  func contains(address: Int) -> Bool {
    address >= Int(bitPattern: base) && address < Int(bitPattern: base) + byteCount
  }

  /// How many elements of `stride` bytes an attribute of `size` bytes at `offset` can read
  /// without leaving the array.
  func capacity(offset: Int, size: Int, stride: Int) -> Int {
    guard offset >= 0, byteCount >= offset + size else { return 0 }
    return stride > 0 ? (byteCount - offset - size) / stride + 1 : Int.max
  }
}
