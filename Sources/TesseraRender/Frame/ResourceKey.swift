import TesseraNumbers

/// Identifies a resource in the ``GPUResourceCache`` by what it is: a value of its owner's own
/// key type (a tile bucket, a tile's image, a hillshade tile's slopes, an atlas page, a marker
/// batch …). Keys of different types never collide. Boxed once with its hash
/// (``ErasedKeyBox``).
package struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
  private let box: any ResourceKeyBox

  package init(_ base: some Hashable & Sendable & CustomStringConvertible) {
    box = TypedResourceKeyBox(base)
  }

  /// The owner's key.
  package var base: any Hashable & Sendable & CustomStringConvertible { box.base }

  package var description: String { box.base.description }

  package static func == (a: ResourceKey, b: ResourceKey) -> Bool {
    a.box === b.box || (a.box.hash == b.box.hash && a.box.holdsSameKey(as: b.box))
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(box.hash)
  }
}

/// A resource key's box, whatever the owner's key type.
private protocol ResourceKeyBox: AnyObject, Sendable {
  var hash: Int { get }
  var base: any Hashable & Sendable & CustomStringConvertible { get }
  func holdsSameKey(as other: AnyObject) -> Bool
}

private final class TypedResourceKeyBox<Key: Hashable & Sendable & CustomStringConvertible>: ResourceKeyBox,
  ErasedKeyBox
{
  let key: Key
  let hash: Int

  init(_ key: Key) {
    self.key = key
    hash = Self.hash(of: key)
  }

  var base: any Hashable & Sendable & CustomStringConvertible { key }
}

/// A page of a texture atlas (marker icons, later glyphs): the atlas's name and the page number.
package struct AtlasPageKey: Hashable, Sendable, CustomStringConvertible {
  package let atlas: String
  package let page: Int

  package init(atlas: String, page: Int) {
    self.atlas = atlas
    self.page = page
  }

  package var description: String { "\(atlas) atlas page \(page)" }
}
