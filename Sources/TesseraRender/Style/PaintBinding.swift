import TesseraGL
import TesseraImage
import TesseraNumbers
import TesseraStyle

/// Which of a program's paint bindings are per-vertex attributes (data-driven) rather than
/// uniforms: bit i stands for the program's i-th binding. Selects the shader variant
/// (`HAS_ATTR_…` defines).
package struct PaintMask: OptionSet, Sendable, Hashable {
  package let rawValue: UInt16
  package init(rawValue: UInt16) { self.rawValue = rawValue }

  /// The bit of the binding at `position` in its program's list.
  static func binding(_ position: Int) -> PaintMask { PaintMask(rawValue: 1 << UInt16(position)) }
}

/// One paint property as a shader sees it: a uniform (`u_<name>`) when constant over the
/// layer's features, else a per-vertex attribute holding its values at two zooms
/// (`a_<name>`, colours as `a_<name>_a` and `a_<name>_b`) mixed by `u_<name>_t`. The shader
/// declares it with `#pragma paint: define <type> <name>` (see ShaderLibrary).
struct PaintBinding: Sendable {
  /// The style property it draws.
  enum Property: Sendable {
    case color(StyleProperty<Color>, UniformSlot<Color>)
    case number(StyleProperty<Double>, UniformSlot<Float>)
    /// A `*-pattern` image: when data-driven, each vertex holds its image's atlas corners
    /// (`a_pattern`, four 16-bit integers) and pixel ratio (`a_pattern_ratio`); when constant,
    /// the layer renderer sets them as uniforms itself (they come from the style's atlas).
    case pattern(StyleProperty<String?>)
  }

  let property: Property
  /// The shader's name, e.g. `width`.
  let shaderName: String
  /// The weight of the upper zoom's value, for attributes.
  let interpolation: UniformSlot<Float>

  /// A colour property drawn as the shader's `name`.
  static func color(_ property: StyleProperty<Color>, _ name: String) -> PaintBinding {
    PaintBinding(
      property: .color(property, UniformSlot("u_\(name)")), shaderName: name, interpolation: UniformSlot("u_\(name)_t"))
  }

  /// A number property drawn as the shader's `name`.
  static func number(_ property: StyleProperty<Double>, _ name: String) -> PaintBinding {
    PaintBinding(
      property: .number(property, UniformSlot("u_\(name)")), shaderName: name, interpolation: UniformSlot("u_\(name)_t")
    )
  }

  /// A pattern property drawn as the shader's `name` (see ``Property/pattern(_:)``).
  static func pattern(_ property: StyleProperty<String?>, _ name: String) -> PaintBinding {
    PaintBinding(property: .pattern(property), shaderName: name, interpolation: UniformSlot("u_\(name)_t"))
  }

  /// The property's spec.
  var spec: PropertySpec {
    switch property {
    case .color(let key, _): return key.spec
    case .number(let key, _): return key.spec
    case .pattern(let key): return key.spec
    }
  }

  var isPattern: Bool {
    if case .pattern = property { return true }
    return false
  }

  var isColor: Bool {
    if case .color = property { return true }
    return false
  }

  /// Bytes per vertex when it is an attribute: two RGBA8 colours, two floats, or a pattern's
  /// four 16-bit corners and float pixel ratio.
  var attributeSize: Int { isPattern ? 12 : 8 }

  /// The `#define` enabling its attribute.
  var define: String { "HAS_ATTR_" + shaderName.uppercased() }

  /// The properties among `bindings` that are data-driven in `layer`.
  static func mask(_ bindings: [PaintBinding], layer: StyleLayer) -> PaintMask {
    var mask: PaintMask = []
    for (position, binding) in bindings.enumerated() where binding.isDataDriven(in: layer) {
      mask.insert(.binding(position))
    }
    return mask
  }

  /// Whether `layer` drives the property with feature data.
  func isDataDriven(in layer: StyleLayer) -> Bool {
    switch property {
    case .color(let key, _): return layer[key].isDataDriven
    case .number(let key, _): return layer[key].isDataDriven
    case .pattern(let key): return layer[key].isDataDriven
    }
  }

  /// The vertex attributes of the properties in `mask`, in buffer `buffer`, packed in order.
  static func attributes(_ bindings: [PaintBinding], mask: PaintMask, buffer: Int) -> (
    attributes: [VertexAttribute], stride: Int
  ) {
    var attributes: [VertexAttribute] = []
    var offset = 0
    for (position, binding) in bindings.enumerated() where mask.contains(.binding(position)) {
      if binding.isPattern {
        attributes.append(VertexAttribute("a_\(binding.shaderName)", .short4, buffer: buffer, offset: offset))
        attributes.append(
          VertexAttribute("a_\(binding.shaderName)_ratio", .float, buffer: buffer, offset: offset + 8))
      } else if binding.isColor {
        attributes.append(
          VertexAttribute("a_\(binding.shaderName)_a", .ubyte4Normalized, buffer: buffer, offset: offset))
        attributes.append(
          VertexAttribute("a_\(binding.shaderName)_b", .ubyte4Normalized, buffer: buffer, offset: offset + 4))
      } else {
        attributes.append(VertexAttribute("a_\(binding.shaderName)", .float2, buffer: buffer, offset: offset))
      }
      offset += binding.attributeSize
    }
    return (attributes, offset)
  }

  /// The defines of the attributes in `mask`.
  static func defines(_ bindings: [PaintBinding], mask: PaintMask) -> [String: String] {
    var defines: [String: String] = [:]
    for (position, binding) in bindings.enumerated() where mask.contains(.binding(position)) {
      defines[binding.define] = "1"
    }
    return defines
  }

  /// The uniforms of `bindings` for `layer` at style zoom `zoom`: values of constant
  /// properties, blend weights of per-vertex ones (built at the tiles' zoom `tileZoom`).
  static func uniforms(_ bindings: [PaintBinding], layer: StyleLayer, mask: PaintMask, zoom: Double, tileZoom: Int)
    -> UniformValues
  {
    var uniforms = UniformValues()
    for (position, binding) in bindings.enumerated() where !binding.isPattern {
      if mask.contains(.binding(position)) {
        let lower = Double(tileZoom)
        let value: PropertyValue
        switch binding.property {
        case .color(let key, _): value = layer[key]
        case .number(let key, _): value = layer[key]
        case .pattern(let key): value = layer[key]
        }
        let t = value.zoomInterpolationFactor(zoom: zoom, lower: lower, upper: lower + 1)
        uniforms.set(binding.interpolation, Float(t))
      } else {
        switch binding.property {
        case .color(let key, let slot): uniforms.set(slot, layer.value(key, zoom: zoom))
        case .number(let key, let slot): uniforms.set(slot, Float(layer.value(key, zoom: zoom)))
        case .pattern: break
        }
      }
    }
    return uniforms
  }
}

/// Per-vertex values of the data-driven properties of one bucket, evaluated per feature at two
/// zooms (the tile's zoom and one more; composite expressions are interpolated between them by
/// the shader, as MapLibre does).
struct PaintAttributeWriter {
  /// How a data-driven binding's values are laid out per vertex.
  private enum Layout {
    /// Two premultiplied RGBA8 colours.
    case color
    /// Two floats.
    case number
    /// Four 16-bit atlas corners and a float pixel ratio.
    case pattern
  }

  let bindings: [PaintBinding]
  let properties: [PropertyValue]
  /// The data-driven properties among `bindings`.
  let mask: PaintMask
  let zoom: Double
  /// The values appended so far: each feature's bytes and its vertex count, consecutive
  /// features with equal values merged.
  private var runs: [(record: [UInt8], count: Int)] = []
  /// The largest value written for each numeric data-driven binding, by binding position.
  private(set) var largest: [Float]
  /// The data-driven bindings in order: position, property and layout.
  private let driven: [(position: Int, property: PropertyValue, layout: Layout)]
  /// Bytes per vertex.
  let stride: Int

  /// Where pattern images lie in the style's atlas.
  let patterns: PatternAtlas

  init(bindings: [PaintBinding], layer: StyleLayer, zoom: Double, patterns: PatternAtlas = .empty) {
    self.bindings = bindings
    self.patterns = patterns
    let properties = bindings.map { binding -> PropertyValue in
      switch binding.property {
      case .color(let key, _): return layer[key]
      case .number(let key, _): return layer[key]
      case .pattern(let key): return layer[key]
      }
    }
    self.properties = properties
    let mask = PaintBinding.mask(bindings, layer: layer)
    self.mask = mask
    self.zoom = zoom
    largest = [Float](repeating: -.infinity, count: bindings.count)
    driven = bindings.indices.filter { mask.contains(.binding($0)) }.map { position in
      let binding = bindings[position]
      return (position, properties[position], binding.isPattern ? .pattern : binding.isColor ? .color : .number)
    }
    stride = driven.reduce(0) { $0 + bindings[$1.position].attributeSize }
  }

  /// The largest value written for the binding of `property` (nil when none was written).
  func largest(_ property: StyleProperty<Double>) -> Float? {
    guard let position = bindings.firstIndex(where: { $0.spec.name == property.spec.name }),
      largest[position] > -.infinity
    else { return nil }
    return largest[position]
  }

  /// Appends the feature's values `count` times (one per vertex of the feature).
  mutating func append(_ feature: any StyleFeature, vertexCount count: Int) {
    guard !driven.isEmpty, count > 0 else { return }
    var record: [UInt8] = []
    record.reserveCapacity(stride)
    for (position, property, layout) in driven {
      switch layout {
      case .pattern:
        // A missing image reads as an empty rectangle at the atlas's clear corner: nothing drawn.
        let name = property.evaluate(zoom: zoom, feature: feature).string
        let found = name.flatMap { patterns.positions[$0] }
        let corners = found?.corners ?? .zero
        for component in [corners.x, corners.y, corners.z, corners.w] {
          withUnsafeBytes(of: Int16(clamping: component)) { record += $0 }
        }
        withUnsafeBytes(of: found?.pixelRatio ?? 1) { record += $0 }
      case .color:
        let value = property.evaluate(zoom: zoom, feature: feature).color ?? .black
        let b = property.isZoomDependent ? (property.evaluate(zoom: zoom + 1, feature: feature).color ?? value) : value
        PaintAttributeWriter.appendPremultiplied(value, to: &record)
        PaintAttributeWriter.appendPremultiplied(b, to: &record)
      case .number:
        let a = Float(property.number(zoom: zoom, feature: feature))
        let b = property.isZoomDependent ? Float(property.number(zoom: zoom + 1, feature: feature)) : a
        withUnsafeBytes(of: a) { record += $0 }
        withUnsafeBytes(of: b) { record += $0 }
        largest[position] = max(largest[position], a, b)
      }
    }
    if let last = runs.last, last.record == record {
      runs[runs.count - 1].count += count
    } else {
      runs.append((record, count))
    }
  }

  /// The per-vertex bytes of every feature appended, in order: made in one allocation of the
  /// exact size, each feature's record copied in doubling blocks (rather than an append per
  /// vertex into a buffer that grows and copies itself as it goes).
  func vertexBytes() -> [UInt8] {
    let total = runs.reduce(0) { $0 + $1.record.count * $1.count }
    return [UInt8](unsafeUninitializedCapacity: total) { block, initialized in
      guard let base = block.baseAddress else { return }
      var start = 0
      for (record, count) in runs {
        let end = start + record.count * count
        record.withUnsafeBufferPointer { (base + start).initialize(from: $0.baseAddress!, count: record.count) }
        var filled = start + record.count
        while filled < end {
          let copied = min(filled - start, end - filled)
          (base + filled).initialize(from: base + start, count: copied)
          filled += copied
        }
        start = end
      }
      initialized = total
    }
  }

  /// Appends `color` premultiplied, as four bytes (RGBA).
  static func appendPremultiplied(_ color: Color, to record: inout [UInt8]) {
    let (r, g, b, a) = color.premultiplied
    record.append(UInt8(clamping: (r * 255).rounded()))
    record.append(UInt8(clamping: (g * 255).rounded()))
    record.append(UInt8(clamping: (b * 255).rounded()))
    record.append(UInt8(clamping: (a * 255).rounded()))
  }
}
