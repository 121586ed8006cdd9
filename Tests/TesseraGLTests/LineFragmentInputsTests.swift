import CGLES3
import TesseraShaders
import Testing

@testable import TesseraGL

/// Solid lines read the dashed ones' fragment inputs to no effect (line.fragment.glsl), so on
/// llvmpipe both share one generated triangle-setup function: the two stages declare the same
/// inputs, and the driver's compiler keeps every dash input of a solid line (a read it dropped
/// would change which inputs the draw sets up).
@Suite struct LineFragmentInputsTests {
  /// The inputs the line program's fragment stage with `switches` declares.
  static func declaredInputs(_ switches: [String]) throws -> [String: GLenum] {
    try FragmentInputsProbe.declaredInputs("line", switches)
  }

  @Test(arguments: [[], [PaintPragma.varyingsDefine], [PaintPragma.varyingsDefine, "HAS_ATTR_COLOR"]])
  func solidAndDashedLinesDeclareTheSameInputs(_ paint: [String]) throws {
    let solid = try Self.declaredInputs(paint)
    let dashed = try Self.declaredInputs(paint + ["DASHED"])
    #expect(solid == dashed)
    #expect(solid["v_floorwidth"] == GLenum(GL_FLOAT))
    #expect(solid["v_tex"] == GLenum(GL_FLOAT_VEC2))
    #expect(solid["v_normal"] == GLenum(GL_FLOAT_VEC2))
  }

  /// A vertex stage for the solid line's fragment stage: a full-view square where the line's
  /// coverage is 1 (on its centre, 10 points wide, no blur), white at full opacity (as uniforms,
  /// or as flat varyings with `PAINT_VARYINGS`), with the dash inputs from uniforms.
  static let probeVertex = """
    in vec2 a_position;
    uniform float u_probe_floorwidth;
    uniform vec2 u_probe_tex;
    out vec2 v_normal;
    out vec2 v_width2;
    out float v_gamma_scale;
    out float v_linesofar;
    flat out float v_floorwidth;
    out vec2 v_tex;
    #ifdef PAINT_VARYINGS
    flat out vec4 v_color;
    flat out float v_opacity;
    flat out float v_blur;
    #endif
    void main() {
      gl_Position = vec4(a_position, 0.0, 1.0);
      v_normal = vec2(0.0);
      v_width2 = vec2(10.0, -10.0);
      v_gamma_scale = 1.0;
      v_linesofar = 0.0;
      v_floorwidth = u_probe_floorwidth;
      v_tex = u_probe_tex;
    #ifdef PAINT_VARYINGS
      v_color = vec4(1.0);
      v_opacity = 1.0;
      v_blur = 0.0;
    #endif
    }
    """

  /// The red byte the solid line's fragment stage with `switches` writes over a 4×4 target
  /// (255 when it draws the line as it is), with the dash inputs `floorwidth` and `tex`.
  static func solidLineRed(_ switches: [String], floorwidth: Float, tex: (Float, Float)) throws -> UInt8 {
    try FragmentInputsProbe.firstPixel("line", switches, vertex: probeVertex) { program in
      for (name, value) in [
        ("u_opacity", Float(1)), ("u_blur", 0), ("u_device_pixel_ratio", 1), ("u_probe_floorwidth", floorwidth),
      ] {
        if let location = program.uniforms[name] { glUniform1f(location, value) }
      }
      if let color = program.uniforms["u_color"] { glUniform4f(color, 1, 1, 1, 1) }
      glUniform2f(try #require(program.uniforms["u_probe_tex"]), tex.0, tex.1)
    }[0]
  }

  /// The solid line's fragment stage reads each dash input (a compiler or an edit that dropped
  /// one would leave its setup apart from the dashed lines'): only the sentinel the comparison
  /// looks for, never met by real lines, changes its output. With paint as uniforms and as flat
  /// varyings.
  @Test(arguments: [[], [PaintPragma.varyingsDefine]])
  func solidLinesReadEachDashInput(_ switches: [String]) throws {
    #expect(try Self.solidLineRed(switches, floorwidth: 0, tex: (0, 0)) == 255)
    #expect(try Self.solidLineRed(switches, floorwidth: 1, tex: (-2.5, 3)) == 255)
    for (floorwidth, tex) in [(Float(-1e38), (Float(0), Float(0))), (0, (-1e38, 0)), (0, (0, -1e38))] {
      let red = try Self.solidLineRed(switches, floorwidth: floorwidth, tex: tex)
      #expect((127...128).contains(red), "\(switches) \(floorwidth), \(tex): \(red)")
    }
  }

  /// Patterned and gradient lines read other inputs anyway and go without the dash inputs.
  @Test(arguments: ["PATTERN", "GRADIENT"])
  func otherLinesGoWithoutTheDashInputs(_ kind: String) throws {
    let inputs = try Self.declaredInputs([kind])
    #expect(inputs["v_tex"] == nil)
    #expect(inputs["v_floorwidth"] == nil)
    #expect(inputs["v_linesofar"] == GLenum(GL_FLOAT))
  }
}
