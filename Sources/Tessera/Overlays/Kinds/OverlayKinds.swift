import TesseraJSON
import TesseraNumbers

/// The overlay kinds Tessera draws: the only list naming them all. Scene fields, their
/// warnings, the CLI's and the service's readers are derived from it, in its order (which is
/// also the order a scene's overlays are added in, so ties of `zIndex` draw in it).
package enum OverlayKinds {
  /// Every kind, in the order their scene fields are read.
  package static var all: [any OverlayKind.Type] {
    [
      PolylineKind.self,
      PolygonKind.self,
      CircleKind.self,
      GroundOverlayKind.self,
      TileOverlayKind.self,
      HeatmapKind.self,
    ]
  }

  /// Scene fields that read overlays of the kinds above from another format, after them.
  package static var importers: [any SceneOverlayField.Type] { [GeoJSONOverlayField.self] }

  /// Every scene field holding overlays, in the order they are read.
  package static var sceneFields: [any SceneOverlayField.Type] {
    all.map { $0 as any SceneOverlayField.Type } + importers
  }

  /// The names of those fields.
  package static var sceneFieldNames: [String] { sceneFields.map { $0.sceneField } }

  /// The scene field named `name`, if one holds overlays.
  package static func sceneField(named name: String) -> (any SceneOverlayField.Type)? {
    sceneFields.first { $0.sceneField == name }
  }

  /// `overlays` in the order a scene's fields would have them read: by kind, in the order of
  /// ``all``, and in the order given within a kind.
  package static func inReadingOrder(_ overlays: [MapOverlay]) -> [MapOverlay] {
    let order = all.map { ObjectIdentifier($0) }
    func rank(_ overlay: MapOverlay) -> Int { order.firstIndex(of: ObjectIdentifier(overlay.kind)) ?? order.count }
    return overlays.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
  }
}
