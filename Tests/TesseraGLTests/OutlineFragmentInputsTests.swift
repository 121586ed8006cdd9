import CGLES3
import TesseraShaders
import Testing

@testable import TesseraGL

/// With paint as flat varyings (`PAINT_VARYINGS`), fill outlines read five more inputs to no
/// effect and lines read the fragment's position (fill_outline and line fragment stages), so
/// that both take the same fragment inputs and llvmpipe draws them with one triangle-setup
/// function: their declared inputs have the same types, and the driver's compiler keeps every
/// read.
@Suite struct OutlineFragmentInputsTests {
  /// How many inputs of each GL type `inputs` holds.
  static func typeCounts(_ inputs: [String: GLenum]) -> [GLenum: Int] {
    inputs.values.reduce(into: [:]) { counts, type in counts[type, default: 0] += 1 }
  }

  @Test(arguments: [[String](), ["DASHED"]])
  func outlinesAndLinesDeclareInputsOfTheSameTypes(_ line: [String]) throws {
    let paint = [PaintPragma.varyingsDefine]
    let outline = try FragmentInputsProbe.declaredInputs("fill_outline", paint)
    // The separable line program declares v_linesofar too, which only patterned and gradient
    // lines read (a linked solid or dashed line drops it).
    var lines = try FragmentInputsProbe.declaredInputs("line", paint + line)
    #expect(lines.removeValue(forKey: "v_linesofar") == GLenum(GL_FLOAT))
    #expect(Self.typeCounts(outline) == Self.typeCounts(lines), "outline \(outline), line \(lines)")
    #expect(outline["gl_FragCoord"] == GLenum(GL_FLOAT_VEC4))
    #expect(lines["gl_FragCoord"] == GLenum(GL_FLOAT_VEC4))
  }

  /// Without paint varyings the two do not match anyway (the lines' paint is uniforms, the
  /// outline's too), so neither pays for the other's inputs.
  @Test func withoutPaintVaryingsNeitherReadsTheOthersInputs() throws {
    let outline = try FragmentInputsProbe.declaredInputs("fill_outline", [])
    #expect(outline == ["gl_FragCoord": GLenum(GL_FLOAT_VEC4), "v_pos": GLenum(GL_FLOAT_VEC2)])
    for line in [[String](), ["DASHED"]] {
      #expect(try FragmentInputsProbe.declaredInputs("line", line)["gl_FragCoord"] == nil, "\(line)")
    }
    let patterned = try FragmentInputsProbe.declaredInputs("fill_outline", [PaintPragma.varyingsDefine, "PATTERN"])
    #expect(patterned["v_unread_a"] == nil)
  }

  /// A vertex stage for the outline's fragment stage: a full-view square whose every pixel lies
  /// on the outline's centre (`v_pos` is the window position over the 4×4 target, so coverage
  /// is 1), white at full opacity, with the five inputs read to no effect from uniforms.
  static let probeVertex = """
    in vec2 a_position;
    uniform vec2 u_probe_a;
    uniform vec2 u_probe_b;
    uniform vec3 u_probe_cde;
    out vec2 v_pos;
    out vec2 v_unread_a;
    out vec2 v_unread_b;
    out float v_unread_c;
    flat out float v_unread_d;
    flat out float v_unread_e;
    flat out vec4 v_color;
    flat out float v_opacity;
    void main() {
      gl_Position = vec4(a_position, 0.0, 1.0);
      v_pos = (a_position + 1.0) * 2.0;
      v_unread_a = u_probe_a;
      v_unread_b = u_probe_b;
      v_unread_c = u_probe_cde.x;
      v_unread_d = u_probe_cde.y;
      v_unread_e = u_probe_cde.z;
      v_color = vec4(1.0);
      v_opacity = 1.0;
    }
    """

  /// The red byte the outline's fragment stage writes at the first pixel with the five inputs
  /// read to no effect set to `values` (a.x, a.y, b.x, b.y, c, d, e).
  static func outlineRed(_ values: [Float]) throws -> UInt8 {
    try FragmentInputsProbe.firstPixel("fill_outline", [PaintPragma.varyingsDefine], vertex: probeVertex) { linked in
      glUniform2f(try #require(linked.uniforms["u_probe_a"]), values[0], values[1])
      glUniform2f(try #require(linked.uniforms["u_probe_b"]), values[2], values[3])
      glUniform3f(try #require(linked.uniforms["u_probe_cde"]), values[4], values[5], values[6])
    }[0]
  }

  /// The outline's fragment stage reads each of the five inputs (a compiler or an edit that
  /// dropped one would leave its setup apart from the lines'): only the sentinel the comparison
  /// looks for, never met by tile coordinates, changes its output.
  @Test func outlinesReadEachLineInput() throws {
    #expect(try Self.outlineRed([Float](repeating: 0, count: 7)) == 255)
    #expect(try Self.outlineRed([1, -2, 3.5, 4096, -8, 0.25, 7]) == 255)
    for index in 0..<7 {
      var values = [Float](repeating: 0, count: 7)
      values[index] = -1e38
      let red = try Self.outlineRed(values)
      #expect((127...128).contains(red), "input \(index): \(red)")
    }
  }
}
