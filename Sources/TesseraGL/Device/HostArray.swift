import TesseraNumbers

/// The elements of an array a device draws from where they lie in process memory (GL's
/// client-side vertex and index arrays), instead of from a copy in a buffer object.
///
/// The object keeps the only reference the device holds to the array and never changes it, so
/// the array's storage (a heap object) stays where it is and `base` stays valid for as long as
/// the object lives. GL reads client arrays during the draw call that names them, and the
/// device keeps the object until the buffer is destroyed.
final class HostArray {
  /// The array, kept alive and unchanged.
  private let elements: Any
  /// Where the first element lies.
  let base: UnsafeRawPointer
  /// The elements' size in bytes.
  let byteCount: Int

  /// Keeps `elements` (not empty) and the address of their storage.
  init<Element>(_ elements: [Element]) {
    precondition(!elements.isEmpty, "a host array has elements")
    self.elements = elements
    base = elements.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }
    byteCount = elements.count * MemoryLayout<Element>.stride
  }

  /// The address `offset` bytes into the array, as GL takes a client array's pointer.
  func address(_ offset: Int) -> Int { Int(bitPattern: base) + offset }
}
