import Foundation
import TesseraNumbers
import TesseraRender
import TesseraStyle

/// The overlays of a map and the style renderer that draws them (remade when one changes).
final class OverlayLayerState {
  var overlays: [MapOverlay] = []
  var nextSequence = 0
  var isDirty = false
  var renderer: StyleRenderer?
  var isMyLocationEnabled = false
  var myLocation: LocationFix?

  /// Overlays in drawing order: zIndex, then the order they were added in.
  var ordered: [MapOverlay] {
    overlays.sorted { ($0.zIndex, $0.sequence) < ($1.zIndex, $1.sequence) }
  }
}

extension Map {
  /// The overlays on the map, in the order they were added.
  public var overlays: [MapOverlay] { overlayLayer.overlays }

  /// Puts an overlay on the map (`overlay.map = mapView`); one on another map moves here.
  public func add(_ overlay: MapOverlay) {
    if let other = overlay.map, other !== self { other.remove(overlay) }
    guard overlay.map !== self else { return }
    overlay.map = self
    overlay.sequence = overlayLayer.nextSequence
    overlayLayer.nextSequence += 1
    overlayLayer.overlays.append(overlay)
    overlaysChanged()
  }

  /// Takes an overlay off the map.
  public func remove(_ overlay: MapOverlay) {
    guard overlay.map === self else { return }
    overlayLayer.overlays.removeAll { $0 === overlay }
    overlay.map = nil
    overlaysChanged()
  }

  func overlaysChanged() { overlayLayer.isDirty = true }

  /// Remakes the overlays' renderer after a change (none when there are no overlays); throws
  /// ``OverlayError`` for an overlay that cannot be drawn (it stays on the map).
  func updateOverlayRenderer() throws {
    guard overlayLayer.isDirty else { return }
    let ordered = overlayLayer.ordered
    for overlay in ordered { try OverlayValidation.check(overlay) }
    try checkContentLimits(overlays: ordered)
    let location = overlayLayer.isMyLocationEnabled ? overlayLayer.myLocation : nil
    if let location { try SceneContent.check(location) }
    guard !ordered.isEmpty || location != nil else {
      overlayLayer.renderer = nil
      overlayLayer.isDirty = false
      return
    }
    // Each kind adds its layers, in drawing order; the my-location layers go over them.
    var built = OverlayStyleBuilder(pixelRatio: styleSettings.pixelRatio)
    for overlay in ordered {
      try cancellation?.check()
      overlay.kind.addLayers(any: overlay, to: &built)
    }
    if let location { MyLocationLayers.add(location, to: &built) }
    let document = built.finish()
    try cancellation?.check()
    let style = try Style.parse(document, source: "overlays")
    try cancellation?.check()
    let pictures = Dictionary(
      uniqueKeysWithValues: built.pictures.map { id, picture in
        (id, RenderSource(id: id, source: picture, kind: .image, tileSize: 512, minZoom: 0, maxZoom: 24))
      })
    overlayLayer.renderer = try StyleBuilder.renderer(
      style, name: "overlays",
      binder: StyleBuilder.binder(
        dataRoot: FileManager.default.currentDirectoryPath, localRoot: nil, settings: styleSettings),
      loader: tileLoader, tileGeneration: tileLoader.cache.generation, settings: styleSettings, images: built.images,
      prebound: pictures)
    overlayLayer.renderer?.cancellation.cancellation = cancellation
    overlayLayer.isDirty = false
  }
}

extension Map {
  /// Throws ``ContentLimitError`` when the markers, the overlays or their points after
  /// densification exceed ``contentLimits``; counts only, nothing is made.
  func checkContentLimits(overlays: [MapOverlay]? = nil) throws(ContentLimitError) {
    try SceneContent.checkCounts(
      markers: markerLayer.markers.count, overlays: overlays ?? overlayLayer.ordered, limits: contentLimits)
  }
}
