import Foundation
import TesseraNumbers

/// A camera animation (`animateToCameraPosition:` / `animateWithCameraUpdate:`): the camera at
/// any time between the start and the end.
///
/// Interpolation: time is eased (``Easing``, ease-in-out by default, Core Animation's default
/// curve for map moves); zoom and tilt change linearly in eased time; the bearing turns the
/// short way round; the target moves in a straight line in Mercator space (across the
/// antimeridian when that is shorter). Every intermediate camera is clamped like any camera, so
/// the tilt never exceeds the cap of the intermediate zoom. The SDK does not state a default
/// duration; Tessera uses ``defaultDuration`` (1 second).
public struct CameraAnimation: Sendable, Equatable {
  /// How time is eased.
  public enum Easing: String, Sendable, Equatable, CaseIterable {
    /// Constant speed.
    case linear
    /// Slow start and end: the cubic Bézier (0.42, 0, 0.58, 1), Core Animation's easeInEaseOut.
    case easeInOut
  }

  /// The default duration, in seconds.
  public static let defaultDuration = 1.0

  public let start: Camera
  public let end: Camera
  /// Seconds from start to end (≥ 0).
  public let duration: Double
  public let easing: Easing
  /// The limits intermediate cameras are clamped to.
  public let limits: CameraLimits

  /// An animation from `start` to `end`; a non-finite or negative duration is an error.
  public init(
    from start: Camera, to end: Camera, duration: Double = CameraAnimation.defaultDuration,
    easing: Easing = .easeInOut, limits: CameraLimits = .default
  ) throws(GeoError) {
    try requireFinite(duration, "duration")
    guard duration >= 0 else { throw GeoError.outOfRange(field: "duration", value: duration, allowed: "≥ 0 seconds") }
    self.start = start
    self.end = end
    self.duration = duration
    self.easing = easing
    self.limits = limits
  }

  /// The animation of `state`'s camera to the camera `update` would give.
  public init(
    state: MapState, update: CameraUpdate, duration: Double = CameraAnimation.defaultDuration,
    easing: Easing = .easeInOut
  ) throws(GeoError) {
    try self.init(
      from: state.camera, to: state.camera(after: update), duration: duration, easing: easing, limits: state.limits)
  }

  /// The eased fraction 0...1 at `time` seconds.
  public func progress(at time: Double) -> Double {
    guard duration > 0 else { return 1 }
    let t = min(max(time / duration, 0), 1)
    switch easing {
    case .linear: return t
    case .easeInOut: return CameraAnimation.cubicBezier(t, 0.42, 0, 0.58, 1)
    }
  }

  /// The camera at `time` seconds (before 0: the start; after the duration: the end).
  public func camera(at time: Double) -> Camera {
    let f = progress(at: time)
    if f <= 0 { return start }
    if f >= 1 { return end }
    let zoom = start.zoom + (end.zoom - start.zoom) * f
    let tilt = start.viewingAngle + (end.viewingAngle - start.viewingAngle) * f
    var turn = (end.bearing - start.bearing).truncatingRemainder(dividingBy: 360)
    if turn > 180 { turn -= 360 }
    if turn < -180 { turn += 360 }
    let bearing = start.bearing + turn * f
    // Mercator at zoom 0; the shorter way round in x.
    let a = Mercator.project(start.target, worldSize: 256)
    let b = Mercator.project(end.target, worldSize: 256)
    var dx = b.x - a.x
    if dx > 128 { dx -= 256 }
    if dx < -128 { dx += 256 }
    let target = Mercator.unproject(WorldPoint(x: a.x + dx * f, y: a.y + (b.y - a.y) * f), worldSize: 256)
    return (try? Camera(target: target, zoom: zoom, bearing: bearing, viewingAngle: tilt, limits: limits)) ?? end
  }

  /// Times of the frames of a `framesPerSecond` sequence: 0, 1/fps, …, ending exactly at the
  /// duration (at least two frames, the start and the end).
  public func frameTimes(framesPerSecond: Double) -> [Double] {
    let intervals = max(Int(clamping: (duration * framesPerSecond).rounded()), 1)
    return (0...intervals).map { duration * Double($0) / Double(intervals) }
  }

  /// y of the cubic Bézier with control points (x1, y1), (x2, y2) at x = `t` (solved by Newton's
  /// method with a bisection fallback; error below 1e-9).
  public static func cubicBezier(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
      3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
    }
    func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
      3 * (1 - s) * (1 - s) * p1 + 6 * (1 - s) * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }
    var s = t
    for _ in 0..<8 {
      let error = coordinate(s, x1, x2) - t
      if abs(error) < 1e-12 { return coordinate(s, y1, y2) }
      let derivative = slope(s, x1, x2)
      if abs(derivative) < 1e-9 { break }
      s -= error / derivative
    }
    var low = 0.0
    var high = 1.0
    s = t
    for _ in 0..<60 {
      let x = coordinate(s, x1, x2)
      if abs(x - t) < 1e-12 { break }
      if x < t { low = s } else { high = s }
      s = (low + high) / 2
    }
    return coordinate(s, y1, y2)
  }
}
