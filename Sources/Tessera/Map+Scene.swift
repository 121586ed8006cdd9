import Foundation
import TesseraData
import TesseraGL
import TesseraJSON

extension Map {
  /// Makes the map a scene describes: its options, its style (or map type) and its camera
  /// updates applied in order.
  public convenience init(scene: Scene, device: GLDevice, tileLoader: TileLoader? = nil) throws {
    var options = scene.options
    if scene.stylePath != nil { options.mapType = .none }
    try self.init(options: options, device: device, tileLoader: tileLoader)
    if let stylePath = scene.stylePath { try loadStyle(path: stylePath, dataRoot: scene.dataRoot) }
    for update in scene.updates { moveCamera(update) }
    try addMarkers(from: scene)
  }

  /// Adds the markers a scene describes and takes its appear-animation progress.
  public func addMarkers(from scene: Scene) throws {
    if let markers = scene.markers {
      let cursor = JSONCursor(root: ["markers": markers], source: scene.path)["markers"]
      add(try SceneMarkers.load(cursor, directory: (scene.path as NSString).deletingLastPathComponent))
    }
    markerAppearProgress = scene.markerAppearProgress
  }

  /// ``init(scene:device:)`` on a new device for `gpu`; with cores to spare, EGL starts up on
  /// another thread while the style is read and the first frame's tiles load
  /// (``MapPreparation``).
  public convenience init(scene: Scene, gpu: GPUSelection = .auto) throws {
    let (preparation, device) = try MapPreparation.startUp(gpu: gpu) { try MapPreparation(scene: scene) }
    try self.init(preparation: preparation, device: device)
    try addMarkers(from: scene)
  }
}
