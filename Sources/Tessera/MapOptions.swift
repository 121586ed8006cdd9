import TesseraGeo
import TesseraImage

/// How a ``Map`` is set up: Google's `GMSMapViewOptions` plus headless rendering settings.
public struct MapOptions: Sendable, Equatable {
  /// View width in points.
  public var width: Double
  /// View height in points.
  public var height: Double
  /// Pixels per point (output pixels = points × scale).
  public var scale: Double
  /// The camera (clamped to ``limits`` when the map applies it).
  public var camera: Camera
  /// Padding: shifts the visual centre and shrinks the visible region.
  public var padding: EdgeInsets
  /// Zoom range and tilt cap.
  public var limits: CameraLimits
  /// Shown where nothing is drawn; default UIKit `lightGray` (rgb 170, 170, 170) as in the SDK.
  public var backgroundColor: Color
  /// Whether to draw the debug tile grid (tile borders and a checkerboard).
  public var showsTileGrid: Bool
  /// Samples per pixel: 1 (none) or 4 (4× MSAA, resolved before readback).
  public var samples: Int

  /// The default camera: latitude 0, longitude 0, zoom 1 (the SDK leaves its default unstated).
  public static let defaultCamera = try! Camera(latitude: 0, longitude: 0, zoom: 1)

  /// Makes options for a view of `width` × `height` points.
  public init(
    width: Double = 512, height: Double = 512, scale: Double = 1, camera: Camera = MapOptions.defaultCamera,
    padding: EdgeInsets = .zero, limits: CameraLimits = .default, backgroundColor: Color = .lightGray,
    showsTileGrid: Bool = true, samples: Int = 1
  ) {
    self.width = width
    self.height = height
    self.scale = scale
    self.camera = camera
    self.padding = padding
    self.limits = limits
    self.backgroundColor = backgroundColor
    self.showsTileGrid = showsTileGrid
    self.samples = samples
  }

  /// The viewport these options describe; throws for a non-positive size or scale or bad padding.
  public func viewport() throws(GeoError) -> Viewport {
    try Viewport(width: width, height: height, scale: scale, padding: padding)
  }
}
