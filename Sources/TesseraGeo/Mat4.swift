import TesseraNumbers

/// A 4×4 matrix of doubles in column-major order (element (row r, column c) at `c * 4 + r`),
/// the layout OpenGL expects. Computed in double precision and converted to Float only when
/// handed to the GPU. The elements are stored inline: making and multiplying matrices (several
/// for each tile of each layer of every frame) allocates nothing.
public struct Mat4: Sendable, Equatable {
  /// The 16 elements, column after column.
  public var elements: SIMD16<Double>

  /// Makes a matrix from 16 column-major elements.
  public init(columnMajor elements: [Double]) {
    precondition(elements.count == 16, "Mat4 needs 16 elements")
    self.elements = SIMD16(elements)
  }

  /// Makes a matrix from 16 column-major elements.
  public init(columnMajor elements: SIMD16<Double>) {
    self.elements = elements
  }

  /// Makes a matrix from rows, as it is written on paper.
  public init(rows: [[Double]]) {
    precondition(rows.count == 4 && rows.allSatisfy { $0.count == 4 }, "Mat4 needs 4×4 rows")
    self.init(
      rows[0][0], rows[0][1], rows[0][2], rows[0][3], rows[1][0], rows[1][1], rows[1][2], rows[1][3],
      rows[2][0], rows[2][1], rows[2][2], rows[2][3], rows[3][0], rows[3][1], rows[3][2], rows[3][3])
  }

  /// Makes a matrix from its 16 elements given row after row, as it is written on paper
  /// (`aRC` is row R, column C).
  public init(
    _ a00: Double, _ a01: Double, _ a02: Double, _ a03: Double,
    _ a10: Double, _ a11: Double, _ a12: Double, _ a13: Double,
    _ a20: Double, _ a21: Double, _ a22: Double, _ a23: Double,
    _ a30: Double, _ a31: Double, _ a32: Double, _ a33: Double
  ) {
    elements = SIMD16(
      a00, a10, a20, a30, a01, a11, a21, a31, a02, a12, a22, a32, a03, a13, a23, a33)
  }

  /// The identity matrix.
  public static let identity = Mat4(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)

  /// The element at row `row`, column `column`.
  public subscript(row: Int, column: Int) -> Double {
    get { elements[column * 4 + row] }
    set { elements[column * 4 + row] = newValue }
  }

  /// A translation by (x, y, z).
  public static func translation(_ x: Double, _ y: Double, _ z: Double) -> Mat4 {
    Mat4(1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1)
  }

  /// A scale by (x, y, z).
  public static func scale(_ x: Double, _ y: Double, _ z: Double) -> Mat4 {
    Mat4(x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1)
  }

  /// The product `a · b` (b is applied first).
  public static func * (a: Mat4, b: Mat4) -> Mat4 {
    var result = SIMD16<Double>()
    for c in 0..<4 {
      for r in 0..<4 {
        var sum = 0.0
        for k in 0..<4 { sum += a.elements[k * 4 + r] * b.elements[c * 4 + k] }
        result[c * 4 + r] = sum
      }
    }
    return Mat4(columnMajor: result)
  }

  /// Applies the matrix to (x, y, z, w) and returns the four results.
  public func transform(_ x: Double, _ y: Double, _ z: Double, _ w: Double = 1)
    -> (Double, Double, Double, Double)
  {
    let e = elements
    return (
      e[0] * x + e[4] * y + e[8] * z + e[12] * w,
      e[1] * x + e[5] * y + e[9] * z + e[13] * w,
      e[2] * x + e[6] * y + e[10] * z + e[14] * w,
      e[3] * x + e[7] * y + e[11] * z + e[15] * w
    )
  }

  /// The elements as 32-bit floats in column-major order, for `glUniformMatrix4fv`.
  public var floats: [Float] { (0..<16).map { Float(elements[$0]) } }
}
