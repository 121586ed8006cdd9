import TesseraGeo
import TesseraImage
import TesseraNumbers

/// Identifies an icon image in the marker atlas: its pixels' content hash and size, so the same
/// picture used by any number of markers (or loaded twice) is stored once.
package struct IconKey: Sendable, Hashable, CustomStringConvertible {
  package let contentHash: UInt64
  package let width: Int
  package let height: Int

  package init(contentHash: UInt64, width: Int, height: Int) {
    self.contentHash = contentHash
    self.width = width
    self.height = height
  }

  /// The key of an image's pixels (FNV-1a over the bytes and the size).
  package init(image: RGBAImage) {
    let hash = image.pixels.withUnsafeBufferPointer { FNV1a.hash($0) }
    self.init(contentHash: hash, width: image.width, height: image.height)
  }

  package var description: String { "icon \(width)x\(height) #\(String(contentHash, radix: 16))" }
}

/// How a marker appears when it is added (GMSMarkerAnimation).
public enum MarkerAppearAnimation: Int, Sendable, CaseIterable {
  /// Seconds an appear animation lasts (the SDK does not state it; a short pop, as its
  /// markers appear).
  package static let duration = 0.3

  case none = 0
  /// Grows out of its ground anchor, overshooting slightly.
  case pop = 1
  /// Fades in.
  case fadeIn = 2
}

/// One marker as the renderer draws it.
package struct MarkerSprite: Sendable {
  /// The anchor's position in world units (0…1 across the world, y down), double precision.
  package var world: WorldPoint
  /// The icon's size in points.
  package var width: Double
  package var height: Double
  /// The ground anchor in the icon's unit square ((0, 0) top left).
  package var anchorX: Double
  package var anchorY: Double
  /// Degrees clockwise about the anchor (from the screen's up for billboards, from north for
  /// flat markers).
  package var rotation: Double
  package var opacity: Double
  package var isFlat: Bool
  package var animation: MarkerAppearAnimation
  package var icon: IconKey

  package init(
    world: WorldPoint, width: Double, height: Double, anchorX: Double, anchorY: Double, rotation: Double,
    opacity: Double, isFlat: Bool, animation: MarkerAppearAnimation, icon: IconKey
  ) {
    self.world = world
    self.width = width
    self.height = height
    self.anchorX = anchorX
    self.anchorY = anchorY
    self.rotation = rotation
    self.opacity = opacity
    self.isFlat = isFlat
    self.animation = animation
    self.icon = icon
  }
}
