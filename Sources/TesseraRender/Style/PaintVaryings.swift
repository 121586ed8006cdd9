import TesseraNumbers
import TesseraShaders
import TesseraStyle

/// The style programs a style draws with their paint passed as flat varyings (the
/// `PAINT_VARYINGS` switch of `PaintPragma`): those it draws, with one set of switches, with
/// more than one set of data-driven properties that the fragment stage reads.
///
/// On llvmpipe, the first draw with each distinct set of fragment-shader inputs has LLVM
/// generate a triangle-setup function (3–5 ms each on a 2-core machine, not kept in Mesa's
/// disk cache). A program's paint variants read different inputs when a property the fragment
/// stage reads is a varying in one (data-driven) and a uniform in the other (constant), so a
/// style with fills of constant colour and fills coloured by data pays for both. With the
/// switch, every paint property is a flat varying (the uniform copied into it when constant)
/// and the variants share one setup function. Variants that differ only in properties the
/// vertex stage alone reads (a line's width) already share theirs. Variants with other switches
/// are compared apart (a pattern reads other inputs anyway), except switches that keep the
/// program's inputs (``StyleProgram/switchesKeepingInputs``: solid lines read the dash inputs
/// to no effect, so dashed and solid lines of one mask share a setup function without the
/// switch, and with it whatever their masks); a program drawn without two
/// such variants keeps its uniforms, since the switch would add per-vertex outputs for no
/// sharing (and a constant fill without inputs shares its setup function with other
/// input-less programs).
///
/// The choice is made once per style, from all its layers, so one style's draws are the same
/// at every camera.
struct PaintVaryings: Sendable, Equatable {
  /// The switch (`PaintPragma.varyingsDefine`).
  static let define = PaintPragma.varyingsDefine

  /// The names of the programs drawn with the switch.
  let programs: Set<String>

  init(programs: Set<String>) {
    self.programs = programs
  }

  /// A program with one set of switches (those that change its inputs).
  private struct Variant: Hashable {
    let program: String
    let switches: [String]
  }

  /// The choice for a style's `layers`: the programs whose pipelines, with one set of switches,
  /// come with more than one set of data-driven properties the fragment stage reads. Masks do
  /// not depend on the zoom, so each layer is asked at its lowest.
  init(layers: [StyleLayer]) {
    var masks: [Variant: Set<PaintMask>] = [:]
    var fragmentPaint: [String: Set<String>] = [:]
    for layer in layers {
      guard let renderer = StyleLayerRenderers.renderer(for: layer.type) else { continue }
      let context = PipelineContext(zoom: layer.minZoom, clipsWithStencil: false)
      for pipeline in renderer.pipelines(layer, context) {
        guard let bindings = pipeline.program.paint else { continue }
        let name = pipeline.program.name
        let read = fragmentPaint[name] ?? ShaderLibrary.fragmentPaint(ofProgram: name)
        fragmentPaint[name] = read
        var visible: PaintMask = []
        for (position, binding) in bindings.enumerated()
        where read.contains(binding.shaderName) && pipeline.mask.contains(.binding(position)) {
          visible.insert(.binding(position))
        }
        let switches = pipeline.switches.filter { !pipeline.program.switchesKeepingInputs.contains($0) }
        masks[Variant(program: name, switches: switches), default: []].insert(visible)
      }
    }
    programs = Set(masks.filter { $0.value.count > 1 }.map(\.key.program))
  }

  /// `pipeline` with the switch when its program is one of ``programs``.
  func apply(_ pipeline: StylePipeline) -> StylePipeline {
    guard programs.contains(pipeline.program.name), !pipeline.switches.contains(Self.define) else { return pipeline }
    var switched = pipeline
    switched.switches = (pipeline.switches + [Self.define]).sorted()
    return switched
  }
}
