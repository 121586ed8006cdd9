import TesseraGeo
import TesseraJSON
import TesseraNumbers

extension Scene {
  /// Has the camera fitted instead of placed, as in a scene without `camera`: to the markers,
  /// the overlays and `visible` (the `visible` field), the way `fit` says (the `fit` field).
  /// Throws what reading those fields from a scene refuses, with the same message (the
  /// ``Fit`` first, then the coordinates).
  public mutating func fitCamera(showing visible: [Coordinate] = [], fit: Fit = Fit()) throws(SceneError) {
    try Scene.check(fit, path: path)
    try setVisible(visible)
    self.fit = fit
    placesCamera = false
  }

  /// Sets the coordinates a fitted camera must show (the `visible` field), checked as the
  /// scene reader checks that field: at most as many as a path holds, each finite with its
  /// latitude in −90…90 and its longitude within ±3600.
  public mutating func setVisible(_ coordinates: [Coordinate]) throws(SceneError) {
    if let problem = OverlayReader.problem(with: coordinates) {
      throw SceneError.invalid(path: path, field: "visible", reason: problem)
    }
    visible = coordinates
  }

  /// Throws the error the `fit` field of a scene at `path` gives for the values of `fit`.
  static func check(_ fit: Fit, path: String) throws(SceneError) {
    // The values are read back as the field holding them is, so the message is the reader's.
    let field = JSONCursor(
      root: ["fit": ["padding": .number(fit.padding), "maxZoom": .number(fit.maxZoom)]], source: path)["fit"]
    do {
      _ = try field["padding"].number(in: Fit.paddingRange)
      _ = try field["maxZoom"].number(in: Fit.maxZoomRange)
    } catch {
      throw SceneError.field(error)
    }
  }
}
