import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// Sky above the horizon and fog over the most distant ground, for views steeper than Google's
/// 65° cap (a raised tilt cap). Ground is covered up to ``TileCovering/maxDistanceFactor`` × D;
/// the fog rises from ``fogStartFactor`` × D to that distance so the edge of the covered ground
/// never shows, a haze band just below the horizon blends the ground into the fog colour, and
/// above the horizon the fog colour fades into the sky colour.
package struct SkyLayer: FrameLayer, Sendable {
  /// The sky colour (straight alpha).
  package var skyColor: Color
  /// The colour distant ground fades into and the sky starts from at the horizon.
  package var fogColor: Color
  /// Ground depth, in camera distances, where fog begins.
  package var fogStartFactor = 2.8
  /// Ground depth, in camera distances, where fog is complete (the covered distance).
  package var fogEndFactor = TileCovering().maxDistanceFactor
  /// Height of the haze band below the horizon, as a fraction of the view height.
  package var hazeFraction = 0.12

  /// A sky of `skyColor` whose fog is the sky colour lightened halfway to white.
  package init(skyColor: Color) {
    self.skyColor = skyColor
    fogColor = Color(
      red: (skyColor.red + 1) / 2, green: (skyColor.green + 1) / 2, blue: (skyColor.blue + 1) / 2, alpha: skyColor.alpha
    )
  }

  /// The sky's pipeline: a full-screen pass behind everything drawn with depth (the `sky`
  /// program, depth tested at the far plane).
  package struct SkyPipeline: PipelineVariant {
    package init() {}

    package var descriptor: PipelineDescriptor {
      PipelineDescriptor(
        program: "sky",
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)]),
        depth: .readOnly, label: "sky")
    }

    package var description: String { "sky" }
  }

  static let viewportHeight = UniformSlot<Float>("u_viewport_height")
  static let scale = UniformSlot<Float>("u_scale")
  static let centerY = UniformSlot<Float>("u_center_y")
  static let distance = UniformSlot<Float>("u_distance")
  static let sinTilt = UniformSlot<Float>("u_sin_tilt")
  static let cosTilt = UniformSlot<Float>("u_cos_tilt")
  static let horizonY = UniformSlot<Float>("u_horizon_y")
  static let fogStart = UniformSlot<Float>("u_fog_start")
  static let fogEnd = UniformSlot<Float>("u_fog_end")
  static let haze = UniformSlot<Float>("u_haze")
  static let skyColor = UniformSlot<Color>("u_sky_color")
  static let fogColor = UniformSlot<Color>("u_fog_color")

  /// Whether a view needs the layer: its top row looks beyond the covered ground or above the
  /// horizon.
  package func isVisible(in transform: CameraTransform) -> Bool {
    guard let depth = transform.groundDepth(atScreenY: 0) else { return true }
    return depth > fogStartFactor * transform.cameraDistance
  }

  /// The full-screen draw, when the view needs it.
  package func addDraws(to frame: inout FrameBuilder) {
    let transform = frame.transform
    guard isVisible(in: transform) else { return }
    let d = transform.cameraDistance
    var uniforms = UniformValues()
    uniforms.set(SkyLayer.viewportHeight, Float(transform.viewport.pixelHeight))
    uniforms.set(SkyLayer.scale, Float(transform.viewport.scale))
    uniforms.set(SkyLayer.centerY, Float(transform.center.y))
    uniforms.set(SkyLayer.distance, Float(d))
    uniforms.set(SkyLayer.sinTilt, Float(transform.sinTilt))
    uniforms.set(SkyLayer.cosTilt, Float(transform.cosTilt))
    uniforms.set(SkyLayer.horizonY, Float(transform.horizonY ?? -1e9))
    uniforms.set(SkyLayer.fogStart, Float(fogStartFactor * d))
    uniforms.set(SkyLayer.fogEnd, Float(fogEndFactor * d))
    uniforms.set(SkyLayer.haze, Float(hazeFraction * transform.viewport.height))
    uniforms.set(SkyLayer.skyColor, skyColor)
    uniforms.set(SkyLayer.fogColor, fogColor)
    frame.draw(.translucent, Pipeline(SkyPipeline()), .builtin(.fullScreenTriangle), uniforms)
  }
}
