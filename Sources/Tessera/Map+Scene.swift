import Foundation
import TesseraData
import TesseraGL
import TesseraJSON
import TesseraNumbers

extension Map {
  /// Makes the map a scene describes: its options, its style (or map type), its camera after
  /// its updates, and its markers.
  public convenience init(scene: Scene, device: GLDevice, tileLoader: TileLoader? = nil) throws {
    try self.init(preparation: MapPreparation(scene: scene, tileLoader: tileLoader), device: device)
    try addMarkers(from: scene)
    applyFeatureStates(from: scene)
  }

  /// ``init(scene:device:tileLoader:)`` on a new device for `gpu`; EGL starts up on another
  /// thread while the style is read and the first frame's tiles load (``MapPreparation``).
  public convenience init(scene: Scene, gpu: GPUSelection = .auto) throws {
    let (preparation, device) = try MapPreparation.startUp(gpu: gpu) { try MapPreparation(scene: scene) }
    try self.init(preparation: preparation, device: device)
    try addMarkers(from: scene)
    applyFeatureStates(from: scene)
  }

  /// Sets the feature states a scene lists.
  public func applyFeatureStates(from scene: Scene) {
    for entry in scene.featureStates {
      setFeatureState(entry.values, source: entry.key.source, sourceLayer: entry.key.sourceLayer, id: entry.key.id)
    }
  }

  /// Adds the overlays described by scene fields (`polylines`, `polygons`, `circles`,
  /// `groundOverlays`, `tileOverlays`, `heatmaps`, `geojsonOverlays`, `myLocation`) of
  /// `fields`; errors name `source` and the field. Files the fields name are read through
  /// `access`.
  public func addOverlays(from fields: JSONValue, source: String, access: ResourceAccess) throws {
    let cursor = JSONCursor(root: fields, source: source)
    for overlay in try MapOverlay.overlays(
      sceneFields: fields, source: source, access: access, cancellation: cancellation)
    {
      add(overlay)
    }
    if let fix = try SceneOverlays.myLocation(cursor["myLocation"]) {
      myLocation = fix
      isMyLocationEnabled = true
    }
  }

  /// Adds the markers a scene describes and takes its appear-animation progress; they are read
  /// as ``SceneContent`` reads them.
  public func addMarkers(from scene: Scene) throws {
    let content = try SceneContent(scene: scene, cancellation: cancellation)
    add(content.markers)
    if let selected = content.selected { selectedMarker = selected }
    for overlay in content.overlays { add(overlay) }
    if let fix = content.myLocation {
      myLocation = fix
      isMyLocationEnabled = true
    }
    markerAppearProgress = scene.markerAppearProgress
    // Counted before anything is densified (fitting the camera walks every geodesic line).
    try checkContentLimits()
    if !scene.placesCamera {
      fitCameraToContent(
        visible: scene.visible, padding: scene.fit.padding, maximumZoom: scene.fit.maxZoom,
        wholeZoom: scene.fit.wholeZoom)
    }
  }

  /// Takes off everything a scene put on the map besides its style and camera (markers and
  /// their icons' atlas, overlays, my-location, the selection), as a new map would have it;
  /// the style's tiles and GPU geometry stay.
  func resetContent() {
    clear()
    for overlay in overlayLayer.overlays { overlay.map = nil }
    // The old atlas pages go, or the new atlas would be drawn into pages of another size.
    markerLayer.renderer.releaseAtlas()
    markerLayer = MarkerLayerState(resources: executor.resources)
    overlayLayer = OverlayLayerState()
    infoWindowCache = nil
    markerAppearProgress = 1
  }
}
