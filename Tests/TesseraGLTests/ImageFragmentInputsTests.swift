import CGLES3
import Testing

@testable import TesseraGL

/// Hillshade and the composite of translucent extrusions read two inputs to no effect
/// (raster.vertex.glsl), so that their fragment stages take the inputs of lit extrusions (three
/// smooth components and a flat one) and llvmpipe draws all of them with one triangle-setup
/// function: every variant declares the same inputs, and the driver's compiler keeps both
/// reads. Image tiles and heatmap colouring, drawn over whole maps without extrusions, go
/// without them.
@Suite struct ImageFragmentInputsTests {
  /// Each program with the switches its layers draw it with (`RECTS` changes only the vertex
  /// stage).
  static let variants: [(program: String, switches: [String])] = [
    ("hillshade", []), ("hillshade", ["BAKED"]), ("hillshade", ["LINEAR_SLOPE"]), ("hillshade", ["SLOPE_TABLE"]),
    ("fill_extrusion_texture", []), ("fill_extrusion_texture", ["PATTERN"]),
  ]

  @Test func imageTilesAndHeatmapsReadThePositionAlone() throws {
    for (program, switches) in [("raster", []), ("raster", ["NEAREST", "PLAIN"]), ("heatmap_texture", [String]())] {
      #expect(
        try FragmentInputsProbe.declaredInputs(program, switches) == ["v_position": GLenum(GL_FLOAT_VEC2)],
        "\(program) \(switches)")
    }
  }

  @Test func everyImageProgramDeclaresTheSameInputs() throws {
    for (program, switches) in Self.variants {
      let inputs = try FragmentInputsProbe.declaredInputs(program, switches)
      #expect(
        inputs == [
          "v_position": GLenum(GL_FLOAT_VEC2), "v_image_smooth": GLenum(GL_FLOAT), "v_image_flat": GLenum(GL_FLOAT),
        ], "\(program) \(switches)")
    }
  }

  /// A vertex stage for an image program's fragment stage: a full-view square at the texture's
  /// centre, with the two inputs read to no effect from uniforms.
  static let probeVertex = """
    in vec2 a_position;
    uniform float u_probe_smooth;
    uniform float u_probe_flat;
    out vec2 v_position;
    out float v_image_smooth;
    flat out float v_image_flat;
    void main() {
      gl_Position = vec4(a_position, 0.0, 1.0);
      v_position = vec2(0.5);
      v_image_smooth = u_probe_smooth;
      v_image_flat = u_probe_flat;
    }
    """

  /// The first pixel an image program writes with the two inputs `smooth` and `flat` (no
  /// texture bound; opacity 1 where the program has one).
  static func firstPixel(_ program: String, _ switches: [String], smooth: Float, flat: Float) throws -> [UInt8] {
    try FragmentInputsProbe.firstPixel(program, switches, vertex: probeVertex) { linked in
      if let opacity = linked.uniforms["u_opacity"] { glUniform1f(opacity, 1) }
      glUniform1f(try #require(linked.uniforms["u_probe_smooth"]), smooth)
      glUniform1f(try #require(linked.uniforms["u_probe_flat"]), flat)
    }
  }

  /// Each program's fragment stage reads both inputs (a compiler or an edit that dropped one
  /// would leave its setup apart from the extrusions'): only the sentinel the comparison looks
  /// for, never met by an image's corners, changes its output.
  @Test func everyImageProgramReadsBothInputs() throws {
    let half: ClosedRange<UInt8> = 127...128
    for (program, switches) in Self.variants {
      for (smooth, flat) in [(Float(0), Float(0)), (1, -2.5)] {
        let pixel = try Self.firstPixel(program, switches, smooth: smooth, flat: flat)
        #expect(!pixel.allSatisfy(half.contains), "\(program) \(switches) \(smooth), \(flat): \(pixel)")
      }
      for (smooth, flat) in [(Float(-1e38), Float(0)), (0, -1e38)] {
        let pixel = try Self.firstPixel(program, switches, smooth: smooth, flat: flat)
        #expect(pixel.allSatisfy(half.contains), "\(program) \(switches) \(smooth), \(flat): \(pixel)")
      }
    }
  }
}
