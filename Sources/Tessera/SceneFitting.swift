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

  /// Places the camera (the `camera` field): `latitude`, `longitude` and `zoom` in degrees and
  /// Google zoom, `bearing` in degrees clockwise from north, `viewingAngle` in degrees from
  /// nadir, clamped to the options' limits. Throws what the field holding these values gives
  /// (a number that is not finite names it).
  public mutating func placeCamera(
    latitude: Double, longitude: Double, zoom: Double, bearing: Double = 0, viewingAngle: Double = 0
  ) throws(SceneError) {
    let values = [
      ("latitude", latitude), ("longitude", longitude), ("zoom", zoom), ("bearing", bearing),
      ("viewingAngle", viewingAngle),
    ]
    for (field, value) in values { try checkNumber(value, field: "camera." + field) }
    do {
      options.camera = try Camera(
        latitude: latitude, longitude: longitude, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle,
        limits: options.limits)
    } catch {
      throw SceneError.invalid(path: path, field: "camera", reason: error.description)
    }
    placesCamera = true
  }

  /// Sets the coordinates a fitted camera must show (the `visible` field), checked as the
  /// scene reader checks that field: at most as many as a path holds, each finite with its
  /// latitude in −90…90 and its longitude within ±3600.
  public mutating func setVisible(_ coordinates: [Coordinate]) throws(SceneError) {
    if coordinates.count > EncodedPolyline.maximumCoordinates {
      throw SceneError.invalid(path: path, field: "visible", reason: OverlayReader.tooManyCoordinates)
    }
    for (index, coordinate) in coordinates.enumerated() {
      try checkNumber(coordinate.latitude, field: "visible[\(index)][0]")
      try checkNumber(coordinate.longitude, field: "visible[\(index)][1]")
      guard OverlayReader.isValid(coordinate) else {
        throw SceneError.invalid(path: path, field: "visible", reason: OverlayReader.invalidCoordinate)
      }
    }
    visible = coordinates
  }

  /// Throws the error the `fit` field of a scene at `path` gives for the values of `fit`.
  static func check(_ fit: Fit, path: String) throws(SceneError) {
    do {
      _ = try JSONCursor(field: "fit.padding", value: .number(fit.padding), source: path).number(in: Fit.paddingRange)
      _ = try JSONCursor(field: "fit.maxZoom", value: .number(fit.maxZoom), source: path).number(in: Fit.maxZoomRange)
    } catch {
      throw SceneError.field(error)
    }
  }

  /// Throws the error the scene's field `field` holding `value` gives when it is not finite.
  private func checkNumber(_ value: Double, field: String) throws(SceneError) {
    do {
      _ = try JSONCursor(field: field, value: .number(value), source: path).number()
    } catch {
      throw SceneError.field(error)
    }
  }
}
