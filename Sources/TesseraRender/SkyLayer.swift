import TesseraGL
import TesseraGeo
import TesseraImage

/// Sky above the horizon and fog over the most distant ground, for views steeper than Google's
/// 65° cap (a raised tilt cap). Ground is covered up to ``TileCovering/maxDistanceFactor`` × D;
/// the fog rises from ``fogStartFactor`` × D to that distance so the edge of the covered ground
/// never shows, a haze band just below the horizon blends the ground into the fog colour, and
/// above the horizon the fog colour fades into the sky colour.
public struct SkyLayer: Sendable {
  /// The sky colour (straight alpha).
  public var skyColor: Color
  /// The colour distant ground fades into and the sky starts from at the horizon.
  public var fogColor: Color
  /// Ground depth, in camera distances, where fog begins.
  public var fogStartFactor = 2.8
  /// Ground depth, in camera distances, where fog is complete (the covered distance).
  public var fogEndFactor = TileCovering().maxDistanceFactor
  /// Height of the haze band below the horizon, as a fraction of the view height.
  public var hazeFraction = 0.12

  /// A sky of `skyColor` whose fog is the sky colour lightened halfway to white.
  public init(skyColor: Color) {
    self.skyColor = skyColor
    fogColor = Color(
      red: (skyColor.red + 1) / 2, green: (skyColor.green + 1) / 2, blue: (skyColor.blue + 1) / 2, alpha: skyColor.alpha
    )
  }

  /// Whether a view needs the layer: its top row looks beyond the covered ground or above the
  /// horizon.
  public func isVisible(in transform: CameraTransform) -> Bool {
    guard let depth = transform.groundDepth(atScreenY: 0) else { return true }
    return depth > fogStartFactor * transform.cameraDistance
  }

  /// The full-screen draw of the layer.
  public func command(for transform: CameraTransform, layer: Int) -> DrawCommand {
    let d = transform.cameraDistance
    let uniforms: [(name: String, value: UniformValue)] = [
      ("u_viewport_height", .float(Float(transform.viewport.pixelHeight))),
      ("u_scale", .float(Float(transform.viewport.scale))),
      ("u_center_y", .float(Float(transform.center.y))),
      ("u_distance", .float(Float(d))),
      ("u_sin_tilt", .float(Float(transform.sinTilt))),
      ("u_cos_tilt", .float(Float(transform.cosTilt))),
      ("u_horizon_y", .float(Float(transform.horizonY ?? -1e9))),
      ("u_fog_start", .float(Float(fogStartFactor * d))),
      ("u_fog_end", .float(Float(fogEndFactor * d))),
      ("u_haze", .float(Float(hazeFraction * transform.viewport.height))),
      ("u_sky_color", skyColor.uniform),
      ("u_fog_color", fogColor.uniform),
    ]
    return DrawCommand(
      key: SortKey(pass: .translucent, layer: layer, order: 0), pipeline: .sky, mesh: .builtin(.fullScreenTriangle),
      uniforms: uniforms)
  }
}
