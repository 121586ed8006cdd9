import TesseraGL
import TesseraNumbers

/// What a draw's pipeline is: a small hashable value of its maker's own type (a style layer's
/// program variant, the sky, marker sprites …) that says how to make the pipeline. The executor
/// makes one GL pipeline per distinct value, the first time a draw uses it.
package protocol PipelineVariant: Hashable, Sendable, CustomStringConvertible {
  /// The program and fixed-function state of the pipeline.
  var descriptor: PipelineDescriptor { get }
}

/// A draw's pipeline, of any variant type: equal when the variants are of one type and equal.
package struct Pipeline: Hashable, Sendable, CustomStringConvertible {
  /// The variant.
  package let variant: any PipelineVariant

  package init(_ variant: some PipelineVariant) {
    self.variant = variant
  }

  /// The program and fixed-function state to make it from.
  package var descriptor: PipelineDescriptor { variant.descriptor }

  package var description: String { variant.description }

  package static func == (a: Pipeline, b: Pipeline) -> Bool {
    isEqual(a.variant, b.variant)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: variant)))
    hasher.combine(variant)
  }
}

/// Whether two values of any hashable types are of one type and equal.
func isEqual<A: Hashable>(_ a: A, _ b: any Hashable) -> Bool {
  guard let b = b as? A else { return false }
  return a == b
}
