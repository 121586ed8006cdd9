import Foundation
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraRender

/// A headless map: Google's `GMSMapView` without a window. Set a camera, take snapshots.
///
/// A map draws with a ``GLDevice`` and, like it, belongs to the thread that made the device.
public final class Map {
  /// The options the map was made with; the camera is kept clamped to the limits.
  public private(set) var options: MapOptions
  /// The device rendering is done with.
  public let device: GLDevice
  private let executor: FrameExecutor

  /// Makes a map drawing with `device`; throws for an invalid view size, scale or padding.
  public init(options: MapOptions, device: GLDevice) throws {
    _ = try options.viewport()
    guard options.samples == 1 || options.samples == 4 else {
      throw GLError.unsupportedSamples(requested: options.samples, maximum: 4)
    }
    var options = options
    options.camera = options.camera.clamped(to: options.limits)
    self.options = options
    self.device = device
    executor = FrameExecutor(device: device, samples: options.samples)
  }

  /// Makes a map on a new device for `gpu` (see ``GPUSelection``).
  public convenience init(options: MapOptions, gpu: GPUSelection = .auto) throws {
    try self.init(options: options, device: GLDevice(gpu: gpu))
  }

  /// The current camera, clamped to the map's limits when set.
  public var camera: Camera {
    get { options.camera }
    set { options.camera = newValue.clamped(to: options.limits) }
  }

  /// The projection of the current camera in the current view.
  public func transform() throws(GeoError) -> CameraTransform {
    CameraTransform(camera: options.camera, viewport: try options.viewport())
  }

  /// The description of the next frame (pure; no GL).
  public func frameDescription() throws(GeoError) -> FrameDescription {
    var layers: [FrameDescription.Layer] = []
    if options.showsTileGrid { layers.append(.debugTileGrid(DebugTileGrid())) }
    return FrameDescription(transform: try transform(), background: options.backgroundColor, layers: layers)
  }

  /// Draws the map and reads the pixels back (straight alpha unless `alpha` says otherwise).
  public func snapshot(alpha: AlphaRepresentation = .straight) throws -> Snapshot {
    var statistics = FrameStatistics()
    let start = DispatchTime.now()
    let plan = FramePlanner.plan(try frameDescription())
    let planned = DispatchTime.now()
    device.resetStatistics()
    try executor.execute(plan)
    device.finish()
    let drawn = DispatchTime.now()
    let image = try executor.readPixels(alpha: alpha)
    let read = DispatchTime.now()
    statistics.drawCalls = device.statistics.drawCalls
    statistics.triangles = device.statistics.triangles
    statistics.planMilliseconds = milliseconds(start, planned)
    statistics.drawMilliseconds = milliseconds(planned, drawn)
    statistics.readbackMilliseconds = milliseconds(drawn, read)
    return Snapshot(image: image, statistics: statistics)
  }
}

/// Milliseconds between two instants.
func milliseconds(_ from: DispatchTime, _ to: DispatchTime) -> Double {
  Double(to.uptimeNanoseconds - from.uptimeNanoseconds) / 1e6
}
