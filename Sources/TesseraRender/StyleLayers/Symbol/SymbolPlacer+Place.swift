import Dispatch
import TesseraNumbers

extension SymbolPlacer {
  /// Places one symbol in three steps: projects it (anchor and boxes on screen), decides
  /// where it goes among the labels placed before it (``SymbolDecision``), then takes its
  /// room in the collision grid and writes the instances of its quads. Nil when nothing of
  /// it is placed. `result` gains the collision circles (with ``showsCollisionCircles``),
  /// the count of placed labels and the draws' flags; the instances are returned.
  mutating func placeSymbol(
    _ candidate: Candidate, values: LayerValues, result: inout PlacedSymbols, tilePass: TilePass? = nil
  ) -> SymbolOutput? {
    guard let projection = projection(of: candidate, values: values) else { return nil }
    let decision = SymbolDecision(
      projection, values: values, hasVariableAnchors: candidate.instance.hasVariableAnchors, grid: grid,
      cuts: tileCuts, tilePass: tilePass)
    if showsCollisionCircles, case .alongLine(let layout?) = projection.text {
      // MapLibre's stroke: 15 tile units of the data tile, over its overscale factor.
      let stroke = 15 * candidate.unit / candidate.overscale * projection.perspective
      result.collisionCircles += CollisionCirclePipeline.instances(
        layout.boxes, stroke: stroke, placed: decision.placeText)
    }
    guard decision.placeText || decision.placeIcon else { return nil }
    for box in decision.occupied { grid.insert(box) }
    result.placed += 1

    let quadsStart = DispatchTime.now().uptimeNanoseconds
    defer { quadNanoseconds += DispatchTime.now().uptimeNanoseconds - quadsStart }
    let quads = projectQuads(candidate, projection, decision, values: values)
    let output = write(quads, candidate, projection, decision, values: values)
    result.textHalo = result.textHalo || output.textHalo
    result.sdfIconHalo = result.sdfIconHalo || output.sdfIconHalo
    result.iconsNearest = result.iconsNearest && output.iconsNearest
    result.textImagesNearest = result.textImagesNearest && output.textImagesNearest
    return output
  }
}
