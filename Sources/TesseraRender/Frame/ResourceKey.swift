import TesseraNumbers

/// Identifies a resource in the ``GPUResourceCache`` by what it is: a value of its owner's own
/// key type (a tile bucket, a tile's image, a hillshade tile's slopes, an atlas page, a marker
/// batch …). Keys of different types never collide.
public struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
  /// The owner's key.
  public let base: any Hashable & Sendable & CustomStringConvertible

  public init(_ base: some Hashable & Sendable & CustomStringConvertible) {
    self.base = base
  }

  public var description: String { base.description }

  public static func == (a: ResourceKey, b: ResourceKey) -> Bool {
    isEqual(a.base, b.base)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: base)))
    hasher.combine(base)
  }
}

/// A page of a texture atlas (marker icons, later glyphs): the atlas's name and the page number.
public struct AtlasPageKey: Hashable, Sendable, CustomStringConvertible {
  public let atlas: String
  public let page: Int

  public init(atlas: String, page: Int) {
    self.atlas = atlas
    self.page = page
  }

  public var description: String { "\(atlas) atlas page \(page)" }
}
