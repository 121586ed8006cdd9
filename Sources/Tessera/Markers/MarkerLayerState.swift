import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

/// A marker's icon as drawn at one pixel density.
struct ResolvedIcon {
  let key: IconKey
  let image: RGBAImage
  /// Size in points.
  let width: Double
  let height: Double
}

/// The markers of a map and what they are drawn with: insertion order, resolved icons, the
/// GPU batches (rebuilt only when a marker changes, or every frame while collision behaviours
/// depend on the camera) and the markers drawn last frame, in draw order.
final class MarkerLayerState {
  var markers: [Marker] = []
  var nextSequence = 0
  var isDirty = false
  let renderer: MarkerRenderer
  /// Icons resolved per icon object and scale.
  private var icons: [ObjectIdentifier: (icon: MarkerIcon, scale: Double, resolved: ResolvedIcon)] = [:]
  /// Turned billboard pictures by icon, rotation (degrees) and anchor.
  private var turned: [TurnedKey: (image: RGBAImage, key: IconKey, anchorX: Double, anchorY: Double)] = [:]

  struct TurnedKey: Hashable {
    let icon: IconKey
    let degrees: Double
    let anchorX: Double
    let anchorY: Double
  }
  /// The markers drawn by the last frame, bottom first (flat ones before billboards).
  private(set) var drawn: [Marker] = []

  init(resources: GPUResourceCache) {
    renderer = MarkerRenderer(resources: resources)
  }

  /// The icon of `marker` at `scale` pixels per point.
  func icon(of marker: Marker, scale: Double) -> ResolvedIcon {
    let icon = marker.icon ?? MarkerIcon.defaultPin
    let id = ObjectIdentifier(icon)
    if let cached = icons[id], cached.scale == scale { return cached.resolved }
    let (image, density) = icon.image(forScale: scale)
    let resolved = ResolvedIcon(
      key: IconKey(image: image), image: image, width: Double(image.width) / density,
      height: Double(image.height) / density)
    icons[id] = (icon, scale, resolved)
    return resolved
  }

  /// Markers in draw order: zIndex, then the order they were added in.
  var ordered: [Marker] {
    markers.sorted { ($0.zIndex, $0.sequence) < ($1.zIndex, $1.sequence) }
  }

  /// Brings the GPU batches up to date for the frame's camera and adds the markers' draws;
  /// `appear` is the progress (0…1) of appear animations.
  func addDraws(to frame: inout FrameBuilder, appear: Double) throws(GLError) {
    let transform = frame.transform
    let collisions = markers.contains { $0.collisionBehavior != .required }
    if isDirty || collisions {
      let scale = transform.viewport.scale
      var shown = ordered
      if collisions { shown = MarkerCollisions.resolve(shown, layer: self, transform: transform) }
      var images: [IconKey: RGBAImage] = [:]
      var sprites: [MarkerSprite] = []
      sprites.reserveCapacity(shown.count)
      var usedTurns = Set<TurnedKey>()
      for marker in shown {
        let icon = icon(of: marker, scale: scale)
        var sprite = MarkerSprite(
          world: Mercator.project(marker.drawnPosition, worldSize: 1), width: icon.width, height: icon.height,
          anchorX: marker.groundAnchor.x, anchorY: marker.groundAnchor.y, rotation: marker.rotation,
          opacity: marker.opacity, isFlat: marker.isFlat, animation: marker.appearAnimation, icon: icon.key)
        let degrees = marker.rotation.truncatingRemainder(dividingBy: 360)
        var upright = sprite
        upright.rotation = 0
        if !marker.isFlat, degrees != 0, MarkerRenderer.isPixelAligned(upright, scale: scale) {
          // Drawn as its turned picture, unrotated.
          let key = TurnedKey(
            icon: icon.key, degrees: degrees, anchorX: marker.groundAnchor.x, anchorY: marker.groundAnchor.y)
          if turned[key] == nil {
            let result = IconRotation.rotate(
              icon.image, degrees: degrees, anchorX: marker.groundAnchor.x, anchorY: marker.groundAnchor.y)
            turned[key] = (result.image, IconKey(image: result.image), result.anchorX, result.anchorY)
          }
          let picture = turned[key]!
          usedTurns.insert(key)
          sprite.icon = picture.key
          sprite.width = Double(picture.image.width) / scale
          sprite.height = Double(picture.image.height) / scale
          sprite.anchorX = picture.anchorX
          sprite.anchorY = picture.anchorY
          sprite.rotation = 0
          if images[picture.key] == nil { images[picture.key] = picture.image }
        } else if images[icon.key] == nil {
          images[icon.key] = icon.image
        }
        sprites.append(sprite)
      }
      turned = turned.filter { usedTurns.contains($0.key) }
      try renderer.update(sprites: sprites, icons: images, scale: scale)
      drawn = shown.filter(\.isFlat) + shown.filter { !$0.isFlat }
      // Forget icons no marker uses any more.
      let used = Set(markers.map { ObjectIdentifier($0.icon ?? MarkerIcon.defaultPin) })
      icons = icons.filter { used.contains($0.key) }
      isDirty = false
    }
    try renderer.addDraws(to: &frame, appear: appear)
  }
}

/// The markers as one layer of a frame: above everything else (the overlay pass).
struct MarkerFrameLayer: FrameLayer {
  let markers: MarkerLayerState
  /// Progress (0…1) of appear animations.
  let appear: Double

  func addDraws(to frame: inout FrameBuilder) throws {
    try markers.addDraws(to: &frame, appear: appear)
  }
}
