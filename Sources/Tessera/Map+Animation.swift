import TesseraGeo
import TesseraNumbers
import TesseraRender

extension Map {
  /// `animateToCameraPosition:`: the animation from the current camera to `camera` (clamped by
  /// the map's rules). Render it with ``render(_:framesPerSecond:_:)`` or sample
  /// ``CameraAnimation/camera(at:)``.
  public func animation(
    to camera: Camera, duration: Double = CameraAnimation.defaultDuration, easing: CameraAnimation.Easing = .easeInOut
  ) throws(GeoError) -> CameraAnimation {
    var end = state
    end.setCamera(camera)
    return try CameraAnimation(
      from: state.camera, to: end.camera, duration: duration, easing: easing, limits: state.limits)
  }

  /// `animateToBearing:`: the animation turning the camera to `bearing` degrees (the short
  /// way round); target, zoom and tilt stay.
  public func animation(
    toBearing bearing: Double, duration: Double = CameraAnimation.defaultDuration,
    easing: CameraAnimation.Easing = .easeInOut
  ) throws(GeoError) -> CameraAnimation {
    let now = state.camera
    return try animation(
      to: try Camera(
        target: now.target, zoom: now.zoom, bearing: bearing, viewingAngle: now.viewingAngle, limits: state.limits),
      duration: duration, easing: easing)
  }

  /// `animateToViewingAngle:`: the animation tilting the camera to `viewingAngle` degrees
  /// (clamped to the zoom's cap); target, zoom and bearing stay.
  public func animation(
    toViewingAngle viewingAngle: Double, duration: Double = CameraAnimation.defaultDuration,
    easing: CameraAnimation.Easing = .easeInOut
  ) throws(GeoError) -> CameraAnimation {
    let now = state.camera
    return try animation(
      to: try Camera(
        target: now.target, zoom: now.zoom, bearing: now.bearing, viewingAngle: viewingAngle, limits: state.limits),
      duration: duration, easing: easing)
  }

  /// `animateToZoom:`: the animation zooming to `zoom`; target, bearing and tilt stay.
  public func animation(
    toZoom zoom: Double, duration: Double = CameraAnimation.defaultDuration, easing: CameraAnimation.Easing = .easeInOut
  ) throws(GeoError) -> CameraAnimation {
    try animation(with: .zoomTo(zoom), duration: duration, easing: easing)
  }

  /// `animateToLocation:`: the animation moving the target to `target`; zoom, bearing and
  /// tilt stay.
  public func animation(
    toLocation target: Coordinate, duration: Double = CameraAnimation.defaultDuration,
    easing: CameraAnimation.Easing = .easeInOut
  ) throws(GeoError) -> CameraAnimation {
    try animation(with: .setTarget(target), duration: duration, easing: easing)
  }

  /// `animateWithCameraUpdate:`: the animation from the current camera to the one `update` gives.
  public func animation(
    with update: CameraUpdate, duration: Double = CameraAnimation.defaultDuration,
    easing: CameraAnimation.Easing = .easeInOut
  ) throws(GeoError) -> CameraAnimation {
    try CameraAnimation(state: state, update: update, duration: duration, easing: easing)
  }

  /// One frame of a rendered animation.
  public struct AnimationFrame {
    /// 0-based frame number.
    public let index: Int
    /// Seconds since the animation started.
    public let time: Double
    /// The camera of this frame.
    public let camera: Camera
    public let snapshot: Snapshot
  }

  /// Renders `animation` at `framesPerSecond` (the first frame at time 0, the last at the
  /// duration), handing each frame to `body` as it is drawn; the map's camera ends at the
  /// animation's end.
  ///
  /// With `playsAppearAnimations` (the default) the markers' appear animations play from the
  /// first frame, as for markers just added to a map: their progress is the time over
  /// ``MarkerAppearAnimation/duration``, and 1 (finished) after the sequence.
  public func render(
    _ animation: CameraAnimation, framesPerSecond: Double, playsAppearAnimations: Bool = true,
    _ body: (AnimationFrame) throws -> Void
  ) throws {
    guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond <= 240 else {
      throw GeoError.outOfRange(field: "frames per second", value: framesPerSecond, allowed: "0 < fps ≤ 240")
    }
    defer { if playsAppearAnimations { markerAppearProgress = 1 } }
    for (index, time) in animation.frameTimes(framesPerSecond: framesPerSecond).enumerated() {
      camera = animation.camera(at: time)
      if playsAppearAnimations { markerAppearProgress = min(time / MarkerAppearAnimation.duration, 1) }
      try body(AnimationFrame(index: index, time: time, camera: camera, snapshot: try snapshot()))
    }
  }
}
