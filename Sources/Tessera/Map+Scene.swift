import TesseraGL

extension Map {
  /// Makes the map a scene describes: its options, its style (or map type) and its camera
  /// updates applied in order.
  public convenience init(scene: Scene, device: GLDevice) throws {
    var options = scene.options
    if scene.stylePath != nil { options.mapType = .none }
    try self.init(options: options, device: device)
    if let stylePath = scene.stylePath { try loadStyle(path: stylePath, dataRoot: scene.dataRoot) }
    for update in scene.updates { moveCamera(update) }
  }

  /// ``init(scene:device:)`` on a new device for `gpu`.
  public convenience init(scene: Scene, gpu: GPUSelection = .auto) throws {
    try self.init(scene: scene, device: GLDevice(gpu: gpu))
  }
}
