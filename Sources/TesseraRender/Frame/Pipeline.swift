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
/// Boxed once with its hash (``ErasedKeyBox``).
package struct Pipeline: Hashable, Sendable, CustomStringConvertible {
  private let box: any PipelineBox

  package init(_ variant: some PipelineVariant) {
    box = TypedPipelineBox(variant)
  }

  /// The variant.
  package var variant: any PipelineVariant { box.variant }

  /// The program and fixed-function state to make it from.
  package var descriptor: PipelineDescriptor { box.variant.descriptor }

  package var description: String { box.variant.description }

  package static func == (a: Pipeline, b: Pipeline) -> Bool {
    a.box === b.box || (a.box.hash == b.box.hash && a.box.holdsSameKey(as: b.box))
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(box.hash)
  }
}

/// A pipeline's box, whatever the variant type.
private protocol PipelineBox: AnyObject, Sendable {
  var hash: Int { get }
  var variant: any PipelineVariant { get }
  func holdsSameKey(as other: AnyObject) -> Bool
}

private final class TypedPipelineBox<Variant: PipelineVariant>: PipelineBox, ErasedKeyBox {
  let key: Variant
  let hash: Int

  init(_ variant: Variant) {
    key = variant
    hash = Self.hash(of: variant)
  }

  var variant: any PipelineVariant { key }
}
