import TesseraNumbers
import TesseraStyle
import TesseraText

/// How a collision box crosses the border lines of a tile (MapLibre's intersect status): the
/// lines are taken as endless, so a box crossing x = the tile's left edge anywhere counts.
struct TileBorderCrossing {
  /// Crosses the left or right border line.
  var vertical = false
  /// Crosses the top or bottom border line.
  var horizontal = false
  /// Points of the box on the shorter side of the line crossed (whole points, truncated; the
  /// smaller of the two when both are crossed, 0 when only a horizontal line is).
  var minSection = 0

  /// Vertical and horizontal 3, vertical 2, horizontal 1, none 0 (MapLibre's order).
  var flags: Int { (vertical ? 2 : 0) + (horizontal ? 1 : 0) }

  /// How `box` crosses the borders of the tile `edges` (screen points).
  init(_ box: CollisionGrid.Box, edges: CollisionGrid.Box) {
    func section(_ low: Double, _ line: Double, _ high: Double) -> Int {
      let length = min(line - low, high - line)
      return length.isFinite ? Int(clamping: max(min(length, 1e9), -1e9)) : 0
    }
    var length = section(box.minX, edges.minX, box.maxX)
    if length <= 0 { length = section(box.minX, edges.maxX, box.maxX) }
    if length > 0 {
      vertical = true
      minSection = length
    }
    length = section(box.minY, edges.minY, box.maxY)
    if length <= 0 { length = section(box.minY, edges.maxY, box.maxY) }
    if length > 0 {
      horizontal = true
      minSection = min(minSection, length)
    }
  }

  init() {}
}

/// The pass of MapLibre's tile placement a symbol is placed in.
struct TilePass {
  /// The first pass: point symbols crossing tile borders, in ``SymbolPlacer/borderOrder``.
  let bordersFirst: Bool
  /// In the first pass, the rank of the symbol's layer among the layers placed in it (0: the
  /// topmost).
  let priority: Int

  /// Whether a label with variable anchors may take an anchor: in the first pass only its
  /// first anchor may cross the borders, and only when the label crosses them unshifted
  /// (labels of lower layers try no other anchor there); otherwise the anchor's box must
  /// cross no border.
  func allowsVariableAnchor(
    first: Bool, unshifted: CollisionGrid.Box, shifted: CollisionGrid.Box, view: CollisionGrid
  ) -> Bool {
    let tile = CollisionGrid.Box(minX: 0, minY: 0, maxX: view.width, maxY: view.height)
    if bordersFirst {
      if first && TileBorderCrossing(unshifted, edges: tile).flags != 0 { return true }
      if priority > 0 { return false }
    }
    return TileBorderCrossing(shifted, edges: tile).flags == 0
  }
}

extension SymbolPlacer {
  /// A symbol crossing tile borders, waiting for the first pass.
  struct BorderSymbol {
    let layer: Int
    let index: Int
    let priority: Int
    let crossing: TileBorderCrossing
    let anchor: SIMD2<Double>
    let identity: String
  }

  /// MapLibre's order of the first pass: upper layers first; symbols crossing both borders,
  /// then vertical, then horizontal ones; longer cut-offs first; then by anchor (y, then x).
  static func borderOrder(_ a: BorderSymbol, _ b: BorderSymbol) -> Bool {
    if a.priority != b.priority { return a.priority < b.priority }
    if a.crossing.flags != b.crossing.flags { return a.crossing.flags > b.crossing.flags }
    if a.crossing.minSection != b.crossing.minSection { return a.crossing.minSection > b.crossing.minSection }
    if a.anchor.y != b.anchor.y { return a.anchor.y < b.anchor.y }
    if a.anchor.x != b.anchor.x { return a.anchor.x < b.anchor.x }
    if a.identity != b.identity { return a.identity < b.identity }
    return (a.layer, a.index) < (b.layer, b.index)
  }

  /// Places the symbols of a frame that is one tile as MapLibre's tile mode does, so that
  /// tiles drawn apart agree on labels crossing their shared borders: first the point
  /// symbols whose boxes cross the tile's (or a neighbour's) borders, in ``borderOrder``;
  /// then every other symbol in the usual order (labels with variable anchors that found no
  /// place in the first pass try again, at anchors crossing no border).
  mutating func placeAsTile(_ layers: [SymbolLayerTiles]) -> [String: PlacedSymbols] {
    let prepared = layers.reversed().map { candidates(of: $0) }
    var results = prepared.map { _ in PlacedSymbols() }
    var drawn: [[PlacedOutput]] = prepared.map { _ in [] }
    var done: [Set<Int>] = prepared.map { _ in [] }

    var crossing: [BorderSymbol] = []
    var priority = 0
    for (layerIndex, layer) in prepared.enumerated() {
      let values = layer.values
      guard values.layer.value(SymbolProperties.placement, zoom: values.zoom) == .point, !values.avoidEdges
      else { continue }
      for (index, candidate) in layer.candidates.enumerated() {
        let status = bordersCrossed(by: candidate, values: values)
        guard status.flags != 0 else { continue }
        crossing.append(
          BorderSymbol(
            layer: layerIndex, index: index, priority: priority, crossing: status, anchor: candidate.instance.anchor,
            identity: candidate.instance.identity))
      }
      priority += 1
    }
    crossing.sort(by: SymbolPlacer.borderOrder)
    for symbol in crossing {
      let candidate = prepared[symbol.layer].candidates[symbol.index]
      let output = placeSymbol(
        candidate, values: prepared[symbol.layer].values, result: &results[symbol.layer],
        tilePass: TilePass(bordersFirst: true, priority: symbol.priority))
      if output == nil && candidate.instance.hasVariableAnchors { continue }
      done[symbol.layer].insert(symbol.index)
      if let output {
        drawn[symbol.layer].append(
          PlacedOutput(index: symbol.index, sortKey: candidate.instance.sortKey, output: output))
      }
    }

    let rest = TilePass(bordersFirst: false, priority: 0)
    for (layerIndex, layer) in prepared.enumerated() {
      for (index, candidate) in layer.candidates.enumerated() where !done[layerIndex].contains(index) {
        guard
          let output = placeSymbol(candidate, values: layer.values, result: &results[layerIndex], tilePass: rest)
        else { continue }
        drawn[layerIndex].append(PlacedOutput(index: index, sortKey: candidate.instance.sortKey, output: output))
      }
    }

    var byLayer: [String: PlacedSymbols] = [:]
    for (layerIndex, layer) in prepared.enumerated() {
      assemble(drawn[layerIndex], values: layer.values, into: &results[layerIndex])
      byLayer[layer.values.layer.id] = results[layerIndex]
    }
    return byLayer
  }

  /// How a symbol's text box (at its first anchor) and icon box cross the borders of the
  /// frame's tile or, failing that, of one of its four neighbours.
  func bordersCrossed(by candidate: Candidate, values: LayerValues) -> TileBorderCrossing {
    let instance = candidate.instance
    guard let anchor = project(dx: candidate.offset.x, dy: candidate.offset.y) else { return TileBorderCrossing() }
    let perspective = min(max(0.5 + 0.5 * transform.cameraDistance / anchor.depth, 0), 4)
    let (width, height) = (transform.viewport.width, transform.viewport.height)
    let tiles = [(0.0, 0.0), (0, -height), (0, height), (-width, 0), (width, 0)].map { dx, dy in
      CollisionGrid.Box(minX: dx, minY: dy, maxX: dx + width, maxY: dy + height)
    }
    func crossing(_ box: CollisionGrid.Box) -> TileBorderCrossing {
      for tile in tiles {
        let status = TileBorderCrossing(box, edges: tile)
        if status.flags != 0 { return status }
      }
      return TileBorderCrossing()
    }
    var result = TileBorderCrossing()
    let textScale = values.textSize.value(instance.feature) / TextLayout.oneEm
    if let first = instance.labels.first {
      let shift =
        instance.hasVariableAnchors
        ? collisionShift(
          variableShift(first, instance: instance, textScale: textScale, padding: values.textPadding), values: values)
        : .zero
      result = crossing(
        screenBox(
          first.label.box, scale: textScale, shift: shift, padding: values.textPadding, anchor: anchor,
          perspective: perspective, translate: values.textTranslate))
    }
    if var icon = instance.icon {
      let iconSize = values.iconSize.value(instance.feature)
      let fits = values.iconTextFit != .none && !instance.labels.isEmpty
      if fits, let first = instance.labels.first {
        icon = fitted(icon, to: first.label.box, textScale: textScale / iconSize, shift: .zero, values: values)
      }
      let padding = values.iconPadding.value(instance.feature).first ?? 2
      let status = crossing(
        screenBox(
          icon.collisionBox(fitted: fits), scale: iconSize, shift: .zero, padding: padding, anchor: anchor,
          perspective: perspective,
          translate: values.iconTranslate))
      result.vertical = result.vertical || status.vertical
      result.horizontal = result.horizontal || status.horizontal
      result.minSection = max(result.minSection, status.minSection)
    }
    return result
  }
}
