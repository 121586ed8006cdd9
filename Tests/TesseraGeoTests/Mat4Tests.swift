import TesseraTestSupport
import Testing

@testable import TesseraGeo

/// 4×4 matrices: element order, products and the conversions handed to the GPU.
@Suite struct Mat4Tests {
  /// Row r, column c of ``sample``: 10·(r + 1) + c + 1 over 7, so that all differ.
  static func sampleElement(_ r: Int, _ c: Int) -> Double { Double(10 * (r + 1) + c + 1) / 7 }

  /// A matrix whose elements all differ.
  static let sample: Mat4 = {
    let rows: [[Double]] = (0..<4).map { r in (0..<4).map { c in sampleElement(r, c) } }
    return Mat4(rows: rows)
  }()

  /// Generated matrices of values in −1000…1000, some of them with zeros and ones, as camera
  /// and tile matrices have.
  static func generated(_ count: Int) -> [Mat4] {
    var random = SeededRandom(seed: 0x4D61_7434)
    return (0..<count).map { index in
      Mat4(
        rows: (0..<4).map { _ in
          (0..<4).map { _ in
            let value = Double(random.next() % 2_000_001) / 1000 - 1000
            switch random.next() % 8 {
            case 0 where index % 2 == 0: return 0
            case 1 where index % 3 == 0: return 1
            default: return value
            }
          }
        })
    }
  }

  @Test func rowsAreWrittenAsOnPaperAndStoredColumnAfterColumn() {
    let m = Self.sample
    let e = Self.sampleElement
    let positional = Mat4(
      e(0, 0), e(0, 1), e(0, 2), e(0, 3), e(1, 0), e(1, 1), e(1, 2), e(1, 3), e(2, 0), e(2, 1), e(2, 2), e(2, 3),
      e(3, 0), e(3, 1), e(3, 2), e(3, 3))
    #expect(positional == m)
    for r in 0..<4 {
      for c in 0..<4 {
        #expect(m[r, c] == Self.sampleElement(r, c))
        #expect(m.elements[c * 4 + r] == m[r, c])
      }
    }
    #expect(Mat4(columnMajor: (0..<16).map { m.elements[$0] }) == m)
    #expect(m.floats == (0..<16).map { Float(m.elements[$0]) })
  }

  /// The product is the row-by-column sum, added in the order of k from a zero start: the
  /// matrices handed to the GPU come from it, so the order is part of Tessera's output bytes.
  @Test func productsSumRowByColumnInOrder() {
    let matrices = Self.generated(40)
    for (a, b) in zip(matrices, matrices.dropFirst()) {
      let product = a * b
      for r in 0..<4 {
        for c in 0..<4 {
          var sum = 0.0
          for k in 0..<4 { sum += a[r, k] * b[k, c] }
          #expect(product[r, c].bitPattern == sum.bitPattern, "row \(r), column \(c)")
        }
      }
    }
  }

  @Test func translationsAndScalesMovePoints() {
    let moved = (Mat4.translation(3, -4, 5) * Mat4.scale(2, 3, 4)).transform(1, 1, 1)
    #expect(moved == (5, -1, 9, 1))
    #expect(Mat4.identity * Self.sample == Self.sample)
    #expect(Self.sample * Mat4.identity == Self.sample)
    let point = Self.sample.transform(1, 2, 3, 4)
    let m = Self.sample
    let first: Double = m[0, 0] + m[0, 1] * 2 + m[0, 2] * 3
    let last: Double = m[3, 0] + m[3, 1] * 2 + m[3, 2] * 3
    #expect(point.0 == first + m[0, 3] * 4)
    #expect(point.3 == last + m[3, 3] * 4)
  }
}
