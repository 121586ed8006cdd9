import TesseraNumbers

/// Whether and how a projected symbol is placed, MapLibre's way: its text at the first
/// anchor whose box is free (with overlap allowed, a second round over the anchors takes the
/// first that fits, else the first anchor), its icon where its box is free, each part needing
/// the other unless it is optional. Pure: reads the collision grid, changes nothing.
struct SymbolDecision {
  /// The point label's anchor taken (an index into the projection's options), also when the
  /// text is not placed (the icon is fitted around it); nil for none and for text along a
  /// line.
  let option: Int?
  /// Whether the text is placed.
  let placeText: Bool
  /// Whether the icon is placed.
  let placeIcon: Bool
  /// The icon as placed or not; nil without one.
  let icon: ProjectedIcon?
  /// Whether the placed icon is drawn: an icon fitted around text at variable anchors shows
  /// only beside its placed text (MapLibre moves it with the text and hides it otherwise),
  /// though it takes its room all the same.
  let drawsIcon: Bool
  /// The boxes the symbol takes in the collision grid once placed (screen points): its
  /// text's, then its icon's, leaving out those of parts that ignore placement.
  let occupied: [CollisionGrid.Box]

  /// Decides the placement of `projection` among the labels placed before it in `grid`.
  /// `cuts`: screen lines no label may cross; `tilePass`: the pass of tile placement, nil
  /// when the frame is not a tile.
  init(
    _ projection: SymbolProjection, values: SymbolPlacer.LayerValues, hasVariableAnchors: Bool,
    grid: CollisionGrid, cuts: TileCuts?, tilePass: TilePass?
  ) {
    func crossesCut(_ box: CollisionGrid.Box) -> Bool { cuts?.crosses(box) ?? false }
    func fits(_ box: CollisionGrid.Box, overlapAllowed: Bool) -> Bool {
      (overlapAllowed || !grid.collides(box)) && !grid.isOffscreen(box)
        && (!values.avoidEdges || grid.isInsideView(box)) && !crossesCut(box)
    }
    var option: Int?
    var textFits = false
    var textBoxes: [CollisionGrid.Box] = []
    let hasText: Bool
    switch projection.text {
    case .none:
      hasText = false
    case .alongLine(let layout):
      // Glyphs along the line: every glyph's box must be free.
      hasText = true
      if let boxes = layout?.boxes {
        textBoxes = boxes
        textFits =
          (values.textAllowOverlap || !boxes.contains(where: grid.collides))
          && !boxes.allSatisfy(grid.isOffscreen) && (!values.avoidEdges || boxes.allSatisfy(grid.isInsideView))
          && !boxes.contains(where: crossesCut)
      }
    case .point(let options):
      hasText = true
      let rounds = hasVariableAnchors && values.textAllowOverlap ? 2 : 1
      // An icon fitted around text at variable anchors must fit at the anchor too, unless it
      // may overlap (MapLibre tries the next anchor).
      let iconMovesWithText = hasVariableAnchors && values.iconTextFit != .none && !values.iconAllowOverlap
      search: for round in 0..<rounds {
        for (index, choice) in options.enumerated() {
          if let tilePass, hasVariableAnchors, let unshifted = choice.unshifted {
            guard
              tilePass.allowsVariableAnchor(
                first: choice.isFirst, unshifted: unshifted, shifted: choice.box, view: grid)
            else { continue }
          }
          let overlapAllowed = values.textAllowOverlap && (round == 1 || !hasVariableAnchors)
          var fit = fits(choice.box, overlapAllowed: overlapAllowed)
          if fit, iconMovesWithText, let icon = choice.icon, !fits(icon.box, overlapAllowed: false) { fit = false }
          if fit || option == nil { option = index }
          if fit {
            textFits = true
            break search
          }
        }
      }
      textBoxes = option.map { [options[$0].box] } ?? []
    }

    // The icon moves with text at a variable anchor only when the text is placed.
    let icon = textFits || !hasVariableAnchors ? projection.icon(option: option) : projection.icon
    let iconFits = icon.map { fits($0.box, overlapAllowed: values.iconAllowOverlap) } ?? false

    // MapLibre's rule for labels with both: each part needs the other unless it is optional.
    let hasIcon = icon != nil
    var placeText = hasText && textFits
    var placeIcon = hasIcon && iconFits
    let iconWithoutText = !hasText || values.textOptional
    let textWithoutIcon = !hasIcon || values.iconOptional
    if hasText && hasIcon {
      if !iconWithoutText && !textWithoutIcon {
        placeText = placeText && placeIcon
        placeIcon = placeText
      } else if !textWithoutIcon {
        placeText = placeText && placeIcon
      } else if !iconWithoutText {
        placeIcon = placeIcon && placeText
      }
    }
    var occupied: [CollisionGrid.Box] = []
    if placeText, !values.textIgnorePlacement { occupied += textBoxes }
    if placeIcon, !values.iconIgnorePlacement, let icon { occupied.append(icon.box) }
    self.option = option
    self.placeText = placeText
    self.placeIcon = placeIcon
    self.icon = icon
    drawsIcon = placeIcon && (placeText || !hasVariableAnchors || values.iconTextFit == .none)
    self.occupied = occupied
  }
}
