import Foundation
import TesseraNumbers

/// The camera-related state of a map (the model behind `GMSMapView`'s camera): the view, the
/// zoom range and tilt cap, the optional target bounds, and the camera kept valid under them.
///
/// Rules, applied on every change:
/// - the camera is clamped (``Camera``'s rules with these ``limits``);
/// - with ``cameraTargetBounds`` set, the target is moved to the nearest point inside them
///   (programmatic moves are held too; the SDK documents this only for gestures);
/// - ``setMinZoom(_:maxZoom:)`` refuses min > max and re-clamps the current camera.
public struct MapState: Sendable, Equatable {
  /// The view: size, scale and padding.
  public private(set) var viewport: Viewport
  /// Zoom range and tilt cap.
  public private(set) var limits: CameraLimits
  /// When set, the camera target is kept inside these bounds.
  public private(set) var cameraTargetBounds: CoordinateBounds?
  /// The current camera, always valid under the rules above.
  public private(set) var camera: Camera

  /// Makes the state; `camera` is clamped to the rules.
  public init(
    camera: Camera, viewport: Viewport, limits: CameraLimits = .default, cameraTargetBounds: CoordinateBounds? = nil
  ) {
    self.viewport = viewport
    self.limits = limits
    self.cameraTargetBounds = cameraTargetBounds?.isValid == true ? cameraTargetBounds : nil
    self.camera = camera
    self.camera = constrained(camera)
  }

  /// The projection of the current camera.
  public var projection: Projection { Projection(camera: camera, viewport: viewport) }

  /// The transform of the current camera.
  public var transform: CameraTransform { CameraTransform(camera: camera, viewport: viewport) }

  /// Replaces the camera (`moveCamera:` with `setCamera:`), applying the rules.
  public mutating func setCamera(_ camera: Camera) {
    self.camera = constrained(camera)
  }

  /// Applies an update (`moveCamera:`).
  public mutating func move(_ update: CameraUpdate) {
    camera = camera(after: update)
  }

  /// `setMinZoom:maxZoom:`: refuses min > max, then re-clamps the camera.
  public mutating func setMinZoom(_ minZoom: Double, maxZoom: Double) throws(GeoError) {
    try limits.setZoomRange(min: minZoom, max: maxZoom)
    camera = constrained(camera)
  }

  /// Raises (or with nil restores) the tilt cap, then re-clamps the camera.
  public mutating func setRaisedTiltCap(_ degrees: Double?) throws(GeoError) {
    try limits.setRaisedTiltCap(degrees)
    camera = constrained(camera)
  }

  /// Sets or clears the target bounds (invalid bounds clear them), then re-applies the rules.
  public mutating func setCameraTargetBounds(_ bounds: CoordinateBounds?) {
    cameraTargetBounds = bounds?.isValid == true ? bounds : nil
    camera = constrained(camera)
  }

  /// Whether `update` can be applied as asked: false for a fit whose insets and the map's
  /// padding leave no room in the view (it would fall back to the minimum zoom).
  public func canApply(_ update: CameraUpdate) -> Bool {
    guard case .fitBounds(_, let insets) = update else { return true }
    let padding = viewport.padding
    return viewport.width - padding.left - padding.right - insets.left - insets.right > 0
      && viewport.height - padding.top - padding.bottom - insets.top - insets.bottom > 0
  }

  /// Changes size, scale or padding; the camera stays.
  public mutating func setViewport(_ viewport: Viewport) {
    self.viewport = viewport
  }

  /// The camera `update` would give, without applying it.
  public func camera(after update: CameraUpdate) -> Camera {
    let c = camera
    func make(_ target: Coordinate, zoom: Double, bearing: Double? = nil, tilt: Double? = nil) -> Camera {
      // Inputs derive from a valid camera or were checked by Camera's initializer already.
      let made = try? Camera(
        target: target, zoom: zoom, bearing: bearing ?? c.bearing, viewingAngle: tilt ?? c.viewingAngle,
        limits: limits)
      return made ?? c
    }
    switch update {
    case .zoomIn:
      return constrained(make(c.target, zoom: c.zoom + 1))
    case .zoomOut:
      return constrained(make(c.target, zoom: c.zoom - 1))
    case .zoomTo(let zoom):
      return constrained(make(c.target, zoom: zoom))
    case .zoomBy(let delta, let point):
      guard let point else { return constrained(make(c.target, zoom: c.zoom + delta)) }
      return constrained(zoomed(by: delta, keeping: point))
    case .setTarget(let target, let zoom):
      return constrained(make(target, zoom: zoom ?? c.zoom))
    case .setCamera(let camera):
      return constrained(camera)
    case .scrollBy(let x, let y):
      return constrained(make(scrolledTarget(x: x, y: y), zoom: c.zoom))
    case .fitBounds(let bounds, let insets):
      guard let fitted = camera(for: bounds, insets: insets) else { return c }
      return constrained(fitted)
    }
  }

  /// `cameraForBounds:insets:`: the camera (bearing 0, tilt 0) that shows `bounds` as large as
  /// possible inside the view minus the map padding minus `insets`, with the bounds centred in
  /// that area; nil for invalid bounds. When the insets leave no room, the minimum zoom with the
  /// bounds centred in the padded view.
  ///
  /// The zoom is the largest at which the bounds' Mercator box fits (clamped to the zoom range);
  /// with even insets the target is the Mercator centre of the bounds, with uneven insets it is
  /// shifted so the bounds sit in the middle of the inset area (Tessera's reading of
  /// "centered within the insets"). Bounds crossing the antimeridian work.
  public func camera(for bounds: CoordinateBounds, insets: EdgeInsets) -> Camera? {
    guard bounds.isValid, insets.isValid else { return nil }
    let padding = viewport.padding
    let left = padding.left + insets.left
    let right = padding.right + insets.right
    let top = padding.top + insets.top
    let bottom = padding.bottom + insets.bottom
    let availableWidth = viewport.width - left - right
    let availableHeight = viewport.height - top - bottom
    // The bounds' Mercator box at zoom 0 (256 points wide).
    let northWest = Mercator.project(Coordinate(latitude: clampLatitude(bounds.north), longitude: 0), worldSize: 256)
    let southEast = Mercator.project(Coordinate(latitude: clampLatitude(bounds.south), longitude: 0), worldSize: 256)
    let boxWidth = bounds.longitudeSpan / 360 * 256
    let boxHeight = southEast.y - northWest.y
    var zoom: Double
    if availableWidth <= 0 || availableHeight <= 0 {
      zoom = limits.minZoom
    } else {
      let byWidth = boxWidth > 0 ? log2(availableWidth / boxWidth) : .infinity
      let byHeight = boxHeight > 0 ? log2(availableHeight / boxHeight) : .infinity
      zoom = min(byWidth, byHeight)
      if !zoom.isFinite { zoom = limits.maxZoom }
    }
    zoom = min(max(zoom, limits.minZoom), limits.maxZoom)
    // Centre of the box in world points at that zoom, shifted by the insets' asymmetry.
    let worldSize = Mercator.worldSize(zoom: zoom)
    let scale = worldSize / 256
    let centreX = (bounds.west + 180) / 360 * worldSize + boxWidth * scale / 2
    let centreY = (northWest.y + boxHeight / 2) * scale
    let padded = viewport.paddedCenter
    // Insets that leave no room cannot place the bounds: they are centred in the padded view.
    let insetCentre =
      availableWidth > 0 && availableHeight > 0
      ? (x: left + availableWidth / 2, y: top + availableHeight / 2) : (x: padded.x, y: padded.y)
    let target = Mercator.unproject(
      WorldPoint(x: centreX - (insetCentre.x - padded.x), y: centreY - (insetCentre.y - padded.y)),
      worldSize: worldSize)
    return try? Camera(target: target, zoom: zoom, bearing: 0, viewingAngle: 0, limits: limits)
  }

  /// The camera after zooming by `delta` with the coordinate under `point` kept there.
  ///
  /// World points scale with the world size, and the ground offset of a screen point from the
  /// target (in points) depends only on tilt, bearing and the view, so the new target is the
  /// anchor's scaled world point minus the point's offset under the new camera.
  private func zoomed(by delta: Double, keeping point: ScreenPoint) -> Camera {
    let before = transform
    let plain =
      (try? Camera(
        target: camera.target, zoom: camera.zoom + delta, bearing: camera.bearing,
        viewingAngle: camera.viewingAngle, limits: limits)) ?? camera
    let after = CameraTransform(camera: plain, viewport: viewport)
    guard let anchor = before.worldPoint(for: point), let offset = after.groundOffset(for: point) else {
      return plain
    }
    let scale = after.worldSize / before.worldSize
    let target = Mercator.unproject(
      WorldPoint(x: anchor.x * scale - offset.dx, y: anchor.y * scale - offset.dy), worldSize: after.worldSize)
    return
      (try? Camera(
        target: target, zoom: plain.zoom, bearing: plain.bearing, viewingAngle: plain.viewingAngle, limits: limits))
      ?? plain
  }

  /// The target after scrolling by (x, y) screen points: the coordinate under the padded centre
  /// moved by (x, y). Above the horizon there is no such coordinate; the move then follows the
  /// ground as if the camera were not tilted.
  private func scrolledTarget(x: Double, y: Double) -> Coordinate {
    let current = transform
    let centre = current.center
    if let coordinate = current.coordinate(for: ScreenPoint(x: centre.x + x, y: centre.y + y)) {
      return coordinate
    }
    let bearing = camera.bearing * .pi / 180
    let dx = x * cos(bearing) - y * sin(bearing)
    let dy = x * sin(bearing) + y * cos(bearing)
    let moved = Mercator.unproject(
      WorldPoint(x: current.targetWorld.x + dx, y: current.targetWorld.y + dy), worldSize: current.worldSize)
    return Coordinate(latitude: moved.latitude, longitude: Mercator.wrapLongitude(moved.longitude))
  }

  /// `camera` clamped to the limits and with its target held inside the target bounds.
  private func constrained(_ camera: Camera) -> Camera {
    var target = camera.target
    if let bounds = cameraTargetBounds, !bounds.contains(target) {
      let latitude = min(max(target.latitude, bounds.south), bounds.north)
      var longitude = target.longitude
      if !bounds.containsLongitude(longitude) {
        let toWest = angularDistance(longitude, bounds.west)
        let toEast = angularDistance(longitude, bounds.east)
        longitude = toWest <= toEast ? bounds.west : bounds.east
      }
      target = Coordinate(latitude: latitude, longitude: longitude)
    }
    return
      (try? Camera(
        target: target, zoom: camera.zoom, bearing: camera.bearing, viewingAngle: camera.viewingAngle, limits: limits))
      ?? camera
  }

  private func angularDistance(_ a: Double, _ b: Double) -> Double {
    let difference = abs(Mercator.wrapLongitude(a - b))
    return min(difference, 360 - difference)
  }

  private func clampLatitude(_ latitude: Double) -> Double {
    min(max(latitude, -Mercator.maxLatitude), Mercator.maxLatitude)
  }
}
