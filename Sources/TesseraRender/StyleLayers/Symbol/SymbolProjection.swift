import TesseraNumbers
import TesseraStyle
import TesseraText

/// A symbol projected for one frame, before any collision test: its anchor on screen, the
/// perspective ratios at the anchor, and the screen boxes of each way its text and icon can
/// be placed.
struct SymbolProjection {
  /// The symbol's text as it can be placed.
  enum Text {
    /// The symbol has no text.
    case none
    /// Glyphs following the line; nil when a glyph runs off the line's end or behind the
    /// camera.
    case alongLine(LineLabelLayout?)
    /// A label at a point: each anchor tried, in order (one without variable anchors).
    case point([TextOption])
  }

  /// A point label at one of its anchors.
  struct TextOption {
    let label: ShapedLabel
    /// The label's shift off the anchor (points): its variable anchor and offset.
    let shift: SIMD2<Double>
    /// The label's collision box on screen, padded (points).
    let box: CollisionGrid.Box
    /// The box without the variable anchor's shift, for tile placement (points); nil
    /// without variable anchors.
    let unshifted: CollisionGrid.Box?
    /// Whether this is the label's first anchor.
    let isFirst: Bool
    /// The icon fitted around this label (`icon-text-fit`); nil when icons are not fitted.
    let icon: ProjectedIcon?
  }

  /// The anchor's clip coordinates and screen point.
  let anchor: SymbolPlacer.Projected
  /// How much larger than at the view's centre a symbol facing the screen is drawn at the
  /// anchor (a ratio, 0…4; MapLibre's perspective ratio).
  let perspective: Double
  /// The same for a symbol lying on the map (a ratio, 0…4).
  let mapPerspective: Double
  /// Points per pixel at 24 px: `text-size` / 24.
  let textScale: Double
  /// `icon-size` (a ratio); 1 without an icon.
  let iconSize: Double
  let text: Text
  /// The icon when no point label is placed: fitted around the label along the line, or
  /// around the point label at its first anchor unshifted (`icon-text-fit`), else as it is;
  /// nil without an icon.
  let icon: ProjectedIcon?

  /// The icon as placed with the point label at `option` (an index into the options), or
  /// with none.
  func icon(option: Int?) -> ProjectedIcon? {
    guard let option, case .point(let options) = text, let fitted = options[option].icon else { return icon }
    return fitted
  }
}

/// A symbol's icon projected for one frame.
struct ProjectedIcon {
  /// The icon, its box fitted around text when ``fitted``.
  let shape: ShapedIcon
  /// Its collision box on screen, padded (points).
  let box: CollisionGrid.Box
  /// Whether it was fitted around text (its stretch zones then grow).
  let fitted: Bool
  /// The shift of the variable anchor it was fitted around (points, in the label's frame):
  /// the icon moves with the label; zero otherwise.
  var shift = SIMD2<Double>(0, 0)
}

extension SymbolPlacer {
  /// The symbol projected for this frame: nil when its anchor is behind the camera or so
  /// far outside the view that no label of it can show.
  func projection(of candidate: Candidate, values: LayerValues) -> SymbolProjection? {
    let instance = candidate.instance
    let feature = instance.feature
    guard let anchor = project(dx: candidate.offset.x, dy: candidate.offset.y) else { return nil }
    // Anchors far outside the view cannot show a label in it (the grid's margin and the
    // widest labels together stay within this).
    let reach = grid.margin + 512
    guard anchor.screen.x > -reach, anchor.screen.y > -reach, anchor.screen.x < transform.viewport.width + reach,
      anchor.screen.y < transform.viewport.height + reach
    else { return nil }
    let distance = transform.cameraDistance
    let perspective = min(max(0.5 + 0.5 * distance / anchor.depth, 0), 4)
    let mapPerspective = min(max(0.5 + 0.5 * anchor.depth / distance, 0), 4)
    let textScale = values.textSize.value(feature) / TextLayout.oneEm
    let iconSize = instance.icon == nil ? 1.0 : values.iconSize.value(feature)
    let iconPadding = instance.icon == nil ? 2 : values.iconPadding.value(feature).first ?? 2

    /// The icon fitted around `label`, moved with it by a variable anchor's `shift` (points,
    /// in the label's frame), or as it is without one.
    func projectedIcon(around label: ShapedLabel?, shift: SIMD2<Double>) -> ProjectedIcon? {
      guard var shape = instance.icon else { return nil }
      let fits = values.iconTextFit != .none && label != nil
      if fits, let label {
        shape = fitted(shape, to: label.box, textScale: textScale / iconSize, shift: .zero, values: values)
      }
      let box = screenBox(
        shape.collisionBox(fitted: fits), scale: iconSize, shift: fits ? collisionShift(shift, values: values) : .zero,
        padding: iconPadding,
        anchor: anchor, perspective: perspective, translate: values.iconTranslate)
      return ProjectedIcon(shape: shape, box: box, fitted: fits, shift: fits ? shift : .zero)
    }

    var text = SymbolProjection.Text.none
    var icon = projectedIcon(around: nil, shift: .zero)
    if !instance.labels.isEmpty, instance.followsLine, instance.line != nil {
      let layout = lineLayout(
        candidate, values: values, textScale: textScale, perspective: perspective, mapPerspective: mapPerspective,
        anchor: anchor)
      text = .alongLine(layout)
      if layout != nil { icon = projectedIcon(around: instance.labels.first?.label, shift: .zero) }
    } else if !instance.labels.isEmpty {
      let first = instance.labels.first?.anchor
      if values.iconTextFit != .none { icon = projectedIcon(around: instance.labels.first?.label, shift: .zero) }
      text = .point(
        instance.labels.map { option in
          let shift =
            instance.hasVariableAnchors
            ? variableShift(option, instance: instance, textScale: textScale, padding: values.textPadding) : .zero
          func box(_ shift: SIMD2<Double>) -> CollisionGrid.Box {
            screenBox(
              option.label.box, scale: textScale, shift: collisionShift(shift, values: values),
              padding: values.textPadding, anchor: anchor,
              perspective: perspective, translate: values.textTranslate)
          }
          return SymbolProjection.TextOption(
            label: option.label, shift: shift, box: box(shift),
            unshifted: instance.hasVariableAnchors ? box(.zero) : nil, isFirst: option.anchor == first,
            icon: values.iconTextFit == .none ? nil : projectedIcon(around: option.label, shift: shift))
        })
    }
    return SymbolProjection(
      anchor: anchor, perspective: perspective, mapPerspective: mapPerspective, textScale: textScale,
      iconSize: iconSize, text: text, icon: icon)
  }

  /// The label along the symbol's line for this frame (written downwards where the line runs
  /// up and down the screen and the label has a vertical version), its collision circles
  /// when it has them; nil when a glyph runs off the line.
  func lineLayout(
    _ candidate: Candidate, values: LayerValues, textScale: Double, perspective: Double, mapPerspective: Double,
    anchor: Projected
  ) -> LineLabelLayout? {
    let instance = candidate.instance
    let fontScale = textScale * (values.textPitchWithMap ? mapPerspective : perspective)
    var layout = layoutAlongLine(
      candidate, label: instance.labels[0].label, fontScale: fontScale, pitchWithMap: values.textPitchWithMap,
      keepUpright: values.keepUpright, translate: values.textTranslate, perspective: perspective,
      textScale: textScale, anchor: anchor)
    if layout?.runsVertically == true, let vertical = instance.verticalLabel {
      // CJK along a line running up and down the screen: written downwards (MapLibre).
      layout = layoutAlongLine(
        candidate, label: vertical, fontScale: fontScale, pitchWithMap: values.textPitchWithMap,
        keepUpright: values.keepUpright, translate: values.textTranslate, perspective: perspective,
        textScale: textScale, anchor: anchor, vertical: true)
    }
    if layout != nil, !instance.lineCircles.isEmpty, let label = instance.labels.first?.label,
      let circles = lineCircles(
        candidate, label: label, textScale: textScale, perspective: perspective, translate: values.textTranslate)
    {
      layout?.boxes = circles
    }
    return layout
  }
}
