import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// The `animation` section of a scene: where the camera goes, how long it takes and the frame
/// rate of the rendered sequence.
///
/// ```json
/// "animation": {"to": {"latitude": 43.74, "longitude": 7.42, "zoom": 17, "bearing": 90, "viewingAngle": 60},
///               "duration": 2, "fps": 24, "easing": "easeInOut"}
/// ```
/// Instead of `to`, `update` takes a camera update in text form (e.g. `"zoomBy:2"`), `bearing`
/// turns the camera alone (`animateToBearing:`) and `viewingAngle` tilts it alone
/// (`animateToViewingAngle:`).
public struct SceneAnimation: Sendable, Equatable {
  /// Where the animation ends.
  public enum Destination: Sendable, Equatable {
    case camera(Camera)
    case update(CameraUpdate)
    /// Degrees; target, zoom and tilt stay.
    case bearing(Double)
    /// Degrees from nadir (clamped to the zoom's cap); target, zoom and bearing stay.
    case viewingAngle(Double)
  }

  public var destination: Destination
  /// Seconds (default ``CameraAnimation/defaultDuration``).
  public var duration: Double
  /// Frames per second of the rendered sequence (default 30).
  public var framesPerSecond: Double
  public var easing: CameraAnimation.Easing

  public init(
    destination: Destination, duration: Double = CameraAnimation.defaultDuration, framesPerSecond: Double = 30,
    easing: CameraAnimation.Easing = .easeInOut
  ) {
    self.destination = destination
    self.duration = duration
    self.framesPerSecond = framesPerSecond
    self.easing = easing
  }

  /// The animation from `state`'s camera.
  public func animation(from state: MapState) throws(GeoError) -> CameraAnimation {
    switch destination {
    case .camera(let camera):
      var end = state
      end.setCamera(camera)
      return try CameraAnimation(
        from: state.camera, to: end.camera, duration: duration, easing: easing, limits: state.limits)
    case .update(let update):
      return try CameraAnimation(state: state, update: update, duration: duration, easing: easing)
    case .bearing(let bearing):
      let now = state.camera
      return try animation(
        from: state,
        to: try Camera(
          target: now.target, zoom: now.zoom, bearing: bearing, viewingAngle: now.viewingAngle, limits: state.limits))
    case .viewingAngle(let angle):
      let now = state.camera
      return try animation(
        from: state,
        to: try Camera(
          target: now.target, zoom: now.zoom, bearing: now.bearing, viewingAngle: angle, limits: state.limits)
      )
    }
  }

  private func animation(from state: MapState, to camera: Camera) throws(GeoError) -> CameraAnimation {
    var end = state
    end.setCamera(camera)
    return try CameraAnimation(
      from: state.camera, to: end.camera, duration: duration, easing: easing, limits: state.limits)
  }

  init(_ cursor: JSONCursor, path: String, limits: CameraLimits) throws {
    if cursor["to"].exists {
      let to = cursor["to"]
      do {
        destination = .camera(
          try Camera(
            latitude: try to["latitude"].number(), longitude: try to["longitude"].number(),
            zoom: try to["zoom"].number(),
            bearing: try to["bearing"].number(default: 0), viewingAngle: try to["viewingAngle"].number(default: 0),
            limits: limits))
      } catch let error as GeoError {
        throw SceneError.invalid(path: path, field: to.path, reason: error.description)
      }
    } else if let bearing = try cursor["bearing"].optionalNumber() {
      destination = .bearing(bearing)
    } else if let angle = try cursor["viewingAngle"].optionalNumber() {
      destination = .viewingAngle(angle)
    } else if let text = try cursor["update"].optionalString() {
      let update: CameraUpdate
      do {
        update = try CameraUpdate(text: text)
      } catch {
        throw SceneError.invalid(path: path, field: cursor["update"].path, reason: error.description)
      }
      destination = .update(update)
    } else {
      throw cursor["to"].mismatch(
        "a camera object (or animation.update with a camera update, animation.bearing or animation.viewingAngle)")
    }
    duration = try cursor["duration"].number(default: CameraAnimation.defaultDuration)
    framesPerSecond = try cursor["fps"].number(default: 30)
    guard duration >= 0, duration <= 600 else {
      throw SceneError.invalid(path: path, field: cursor["duration"].path, reason: "must be 0...600 seconds")
    }
    guard framesPerSecond > 0, framesPerSecond <= 240 else {
      throw SceneError.invalid(path: path, field: cursor["fps"].path, reason: "must be more than 0 and at most 240")
    }
    let easingName = try cursor["easing"].optionalString() ?? CameraAnimation.Easing.easeInOut.rawValue
    guard let easing = CameraAnimation.Easing(rawValue: easingName) else {
      throw SceneError.invalid(path: path, field: cursor["easing"].path, reason: "expected linear or easeInOut")
    }
    self.easing = easing
  }
}
