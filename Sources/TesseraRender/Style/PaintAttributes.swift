import TesseraGL
import TesseraImage
import TesseraStyle

/// Which paint properties of a draw are per-vertex attributes (data-driven) rather than
/// uniforms; selects the shader variant (`HAS_ATTR_…` defines).
public struct PaintMask: OptionSet, Sendable, Hashable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  public static let color = PaintMask(rawValue: 1 << 0)
  public static let opacity = PaintMask(rawValue: 1 << 1)
  public static let width = PaintMask(rawValue: 1 << 2)
  public static let gapwidth = PaintMask(rawValue: 1 << 3)
  public static let offset = PaintMask(rawValue: 1 << 4)
  public static let blur = PaintMask(rawValue: 1 << 5)
  public static let radius = PaintMask(rawValue: 1 << 6)
  public static let strokeColor = PaintMask(rawValue: 1 << 7)
  public static let strokeWidth = PaintMask(rawValue: 1 << 8)
  public static let strokeOpacity = PaintMask(rawValue: 1 << 9)
  public static let height = PaintMask(rawValue: 1 << 10)
  public static let base = PaintMask(rawValue: 1 << 11)
}

/// One paint property as a shader sees it.
struct PaintBinding: Sendable {
  /// The style property, e.g. `line-width`.
  let property: String
  /// The shader's name, e.g. `width` (attribute `a_width`, uniform `u_width`).
  let shaderName: String
  let mask: PaintMask
  let isColor: Bool

  /// Bytes per vertex when it is an attribute: two RGBA8 colours or two floats.
  var attributeSize: Int { 8 }

  /// The `#define` enabling its attribute.
  var define: String { "HAS_ATTR_" + shaderName.uppercased() }

  static let fill = [
    PaintBinding(property: "fill-color", shaderName: "color", mask: .color, isColor: true),
    PaintBinding(property: "fill-opacity", shaderName: "opacity", mask: .opacity, isColor: false),
  ]
  static let fillOutline = [
    PaintBinding(property: "fill-outline-color", shaderName: "color", mask: .color, isColor: true),
    PaintBinding(property: "fill-opacity", shaderName: "opacity", mask: .opacity, isColor: false),
  ]
  static let line = [
    PaintBinding(property: "line-color", shaderName: "color", mask: .color, isColor: true),
    PaintBinding(property: "line-opacity", shaderName: "opacity", mask: .opacity, isColor: false),
    PaintBinding(property: "line-width", shaderName: "width", mask: .width, isColor: false),
    PaintBinding(property: "line-gap-width", shaderName: "gapwidth", mask: .gapwidth, isColor: false),
    PaintBinding(property: "line-offset", shaderName: "offset", mask: .offset, isColor: false),
    PaintBinding(property: "line-blur", shaderName: "blur", mask: .blur, isColor: false),
  ]
  static let circle = [
    PaintBinding(property: "circle-color", shaderName: "color", mask: .color, isColor: true),
    PaintBinding(property: "circle-radius", shaderName: "radius", mask: .radius, isColor: false),
    PaintBinding(property: "circle-blur", shaderName: "blur", mask: .blur, isColor: false),
    PaintBinding(property: "circle-opacity", shaderName: "opacity", mask: .opacity, isColor: false),
    PaintBinding(property: "circle-stroke-color", shaderName: "stroke_color", mask: .strokeColor, isColor: true),
    PaintBinding(property: "circle-stroke-width", shaderName: "stroke_width", mask: .strokeWidth, isColor: false),
    PaintBinding(property: "circle-stroke-opacity", shaderName: "stroke_opacity", mask: .strokeOpacity, isColor: false),
  ]

  static let fillExtrusion = [
    PaintBinding(property: "fill-extrusion-color", shaderName: "color", mask: .color, isColor: true),
    PaintBinding(property: "fill-extrusion-height", shaderName: "height", mask: .height, isColor: false),
    PaintBinding(property: "fill-extrusion-base", shaderName: "base", mask: .base, isColor: false),
  ]

  /// The vertex attributes of the properties in `mask`, in buffer `buffer`, packed in order.
  static func attributes(_ bindings: [PaintBinding], mask: PaintMask, buffer: Int) -> (
    attributes: [VertexAttribute], stride: Int
  ) {
    var attributes: [VertexAttribute] = []
    var offset = 0
    for binding in bindings where mask.contains(binding.mask) {
      if binding.isColor {
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
    for binding in bindings where mask.contains(binding.mask) { defines[binding.define] = "1" }
    return defines
  }
}

/// Per-vertex values of the data-driven properties of one bucket, evaluated per feature at two
/// zooms (the tile's zoom and one more; composite expressions are interpolated between them by
/// the shader, as MapLibre does).
struct PaintAttributeWriter {
  let bindings: [PaintBinding]
  let properties: [PropertyValue]
  /// The data-driven properties among `bindings`.
  let mask: PaintMask
  let zoom: Double
  private(set) var bytes: [UInt8] = []
  /// The largest value written for each numeric data-driven property, by property name.
  private(set) var largest: [String: Float] = [:]

  init(bindings: [PaintBinding], layer: StyleLayer, zoom: Double) {
    var mask: PaintMask = []
    var properties: [PropertyValue] = []
    for binding in bindings {
      let value = layer.property(binding.property)
      properties.append(value)
      if value.isDataDriven { mask.insert(binding.mask) }
    }
    self.bindings = bindings
    self.properties = properties
    self.mask = mask
    self.zoom = zoom
  }

  /// Bytes per vertex.
  var stride: Int { bindings.filter { mask.contains($0.mask) }.count * 8 }

  /// Appends the feature's values `count` times (one per vertex of the feature).
  mutating func append(_ feature: any StyleFeature, vertexCount count: Int) {
    guard !mask.isEmpty, count > 0 else { return }
    var record: [UInt8] = []
    for (binding, property) in zip(bindings, properties) where mask.contains(binding.mask) {
      if binding.isColor {
        let value = property.evaluate(zoom: zoom, feature: feature).color ?? .black
        let b = property.isZoomDependent ? (property.evaluate(zoom: zoom + 1, feature: feature).color ?? value) : value
        record += PaintAttributeWriter.premultipliedBytes(value) + PaintAttributeWriter.premultipliedBytes(b)
      } else {
        let a = Float(property.number(zoom: zoom, feature: feature))
        let b = property.isZoomDependent ? Float(property.number(zoom: zoom + 1, feature: feature)) : a
        withUnsafeBytes(of: a) { record += $0 }
        withUnsafeBytes(of: b) { record += $0 }
        largest[binding.property] = max(largest[binding.property] ?? -.infinity, a, b)
      }
    }
    // No exact reserveCapacity here: it would reallocate on every feature (quadratic copying);
    // appending grows the buffer geometrically.
    for _ in 0..<count { bytes.append(contentsOf: record) }
  }

  static func premultipliedBytes(_ color: Color) -> [UInt8] {
    let (r, g, b, a) = color.premultiplied
    return [r, g, b, a].map { UInt8(($0 * 255).rounded()) }
  }
}
