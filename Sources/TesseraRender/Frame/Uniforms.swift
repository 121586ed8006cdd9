import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A Swift type a uniform can hold.
package protocol UniformType: Sendable {
  /// The value as the GL device sets it.
  var uniformValue: UniformValue { get }
}

extension Float: UniformType {
  package var uniformValue: UniformValue { .float(self) }
}

extension Int32: UniformType {
  package var uniformValue: UniformValue { .int(self) }
}

/// A GLSL `bool`: 1 or 0.
extension Bool: UniformType {
  package var uniformValue: UniformValue { .int(self ? 1 : 0) }
}

extension SIMD2: UniformType where Scalar == Float {
  package var uniformValue: UniformValue { .vec2(x, y) }
}

extension SIMD3: UniformType where Scalar == Float {
  package var uniformValue: UniformValue { .vec3(x, y, z) }
}

extension SIMD4: UniformType where Scalar == Float {
  package var uniformValue: UniformValue { .vec4(x, y, z, w) }
}

/// A `mat4`, converted from double precision.
extension Mat4: UniformType {
  package var uniformValue: UniformValue { .mat4(floats) }
}

/// A colour is sent premultiplied, as every program blends it.
extension Color: UniformType {
  package var uniformValue: UniformValue {
    let (r, g, b, a) = premultiplied
    return .vec4(Float(r), Float(g), Float(b), Float(a))
  }
}

/// A uniform slot of any value type, as draws hold it.
package protocol AnyUniformSlot: AnyObject, Sendable {
  /// The variable's name in GLSL.
  var name: String { get }
}

/// A uniform variable of a program, typed by what it holds and declared once as a constant
/// next to the code that draws with the program (for example `LineLayerRenderer.ratio`).
/// Draws set values through slots, never through names: the executor looks each slot's
/// location up once per pipeline, and a misspelt slot does not compile.
package final class UniformSlot<Value: UniformType>: AnyUniformSlot {
  package let name: String

  /// The slot of the GLSL uniform `name`.
  package init(_ name: String) {
    self.name = name
  }
}

/// The uniform values of one draw, in the order they were set.
package struct UniformValues: Sendable {
  /// One value and the slot it is for.
  package struct Entry: Sendable {
    package let slot: any AnyUniformSlot
    package let value: UniformValue
  }

  package private(set) var entries: [Entry] = []

  package init() {}

  /// Sets `slot` to `value` (replacing an earlier value for it).
  package mutating func set<Value>(_ slot: UniformSlot<Value>, _ value: Value) {
    let entry = Entry(slot: slot, value: value.uniformValue)
    if let index = entries.firstIndex(where: { $0.slot === slot }) {
      entries[index] = entry
    } else {
      entries.append(entry)
    }
  }

  /// The value set for `slot`, if any.
  package func value<Value>(of slot: UniformSlot<Value>) -> UniformValue? {
    entries.first { $0.slot === slot }?.value
  }

  /// These values followed by `other`'s.
  package func merging(_ other: UniformValues) -> UniformValues {
    var merged = self
    for entry in other.entries {
      if let index = merged.entries.firstIndex(where: { $0.slot === entry.slot }) {
        merged.entries[index] = entry
      } else {
        merged.entries.append(entry)
      }
    }
    return merged
  }
}
