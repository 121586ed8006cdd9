import TesseraNumbers

/// Identifies a resource in the ``GPUResourceCache`` by what it is: a value of its owner's own
/// key type (a tile bucket, a tile's image, a hillshade tile's slopes, an atlas page, a marker
/// batch …). Keys of different types never collide.
package struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
  /// The owner's key.
  package let base: any Hashable & Sendable & CustomStringConvertible

  package init(_ base: some Hashable & Sendable & CustomStringConvertible) {
    self.base = base
  }

  package var description: String { base.description }

  package static func == (a: ResourceKey, b: ResourceKey) -> Bool {
    isEqual(a.base, b.base)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: base)))
    hasher.combine(base)
  }
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
