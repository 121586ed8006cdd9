import TesseraNumbers
import TesseraStyle
import TesseraText

extension SymbolPlacer {
  /// MapLibre's shift of a label at a variable anchor (points): its padded box moved off the
  /// anchor, plus the offset.
  func variableShift(
    _ option: (anchor: TextAnchor, label: ShapedLabel), instance: SymbolInstance, textScale: Double, padding: Double
  ) -> SIMD2<Double> {
    let box = option.label.box
    let width = box.width * textScale + 2 * padding
    let height = box.height * textScale + 2 * padding
    let variable = SymbolPlacer.variableOffset(
      option.anchor, offset: instance.textOffset, radial: instance.usesRadialOffset)
    return SIMD2(
      -(option.anchor.horizontalAlign - 0.5) * width + variable.x * textScale,
      -(option.anchor.verticalAlign - 0.5) * height + variable.y * textScale)
  }

  /// MapLibre's offset of a label at a variable anchor (pixels at 24 px): `text-offset`
  /// pushed away from the anchor, or `text-radial-offset` along the diagonal.
  static func variableOffset(_ anchor: TextAnchor, offset: SIMD2<Double>, radial: Bool) -> SIMD2<Double> {
    let baseline = SymbolBucketBuilder.baselineOffset
    var x = 0.0
    var y = 0.0
    if radial {
      let radius = offset.x
      let hypotenuse = radius / 2.squareRoot()
      switch anchor {
      case .topRight, .topLeft: y = hypotenuse - baseline
      case .bottomRight, .bottomLeft: y = -hypotenuse + baseline
      case .bottom: y = -radius + baseline
      case .top: y = radius - baseline
      case .center, .left, .right: break
      }
      switch anchor {
      case .topRight, .bottomRight: x = -hypotenuse
      case .topLeft, .bottomLeft: x = hypotenuse
      case .left: x = radius
      case .right: x = -radius
      case .center, .top, .bottom: break
      }
    } else {
      let (ox, oy) = (abs(offset.x), abs(offset.y))
      switch anchor {
      case .topRight, .topLeft, .top: y = oy - baseline
      case .bottomRight, .bottomLeft, .bottom: y = -oy + baseline
      case .center, .left, .right: break
      }
      switch anchor {
      case .topRight, .bottomRight, .right: x = -ox
      case .topLeft, .bottomLeft, .left: x = ox
      case .center, .top, .bottom: break
      }
    }
    return SIMD2(x, y)
  }

  /// An icon's box fitted around its text (`icon-text-fit`), as MapLibre fits it: the text
  /// box (points at the icon's size) grown by the padding, or the image's own size centred
  /// on the text in a dimension not fitted; `icon-offset` added.
  func fitted(_ icon: ShapedIcon, to textBox: SymbolBox, textScale: Double, shift: SIMD2<Double>, values: LayerValues)
    -> ShapedIcon
  {
    let padding = values.iconTextFitPadding
    let (top, right, bottom, left) = (
      padding.first ?? 0, padding.count > 1 ? padding[1] : 0, padding.count > 2 ? padding[2] : 0,
      padding.count > 3 ? padding[3] : 0
    )
    let imageWidth = icon.image.width / icon.image.pixelRatio
    let imageHeight = icon.image.height / icon.image.pixelRatio
    let textLeft = textBox.left * textScale + shift.x
    let textRight = textBox.right * textScale + shift.x
    let textTop = textBox.top * textScale + shift.y
    let textBottom = textBox.bottom * textScale + shift.y
    var box = icon.box
    if values.iconTextFit == .width || values.iconTextFit == .both {
      box.left = icon.offset.x + textLeft - left
      box.right = icon.offset.x + textRight + right
    } else {
      box.left = icon.offset.x + (textLeft + textRight - imageWidth) / 2
      box.right = box.left + imageWidth
    }
    if values.iconTextFit == .height || values.iconTextFit == .both {
      box.top = icon.offset.y + textTop - top
      box.bottom = icon.offset.y + textBottom + bottom
    } else {
      box.top = icon.offset.y + (textTop + textBottom - imageHeight) / 2
      box.bottom = box.top + imageHeight
    }
    var result = icon
    result.box = box
    return result
  }

  /// A symbol's collision box on screen: `box` (scaled by `scale`, padded) around the
  /// projected anchor, scaled by the perspective ratio. Symbols lying on the map get the same
  /// box as MapLibre Native gives them (not their foreshortened outline), so labels far away
  /// on a tilted map keep more room than their shrunken text takes.
  func screenBox(
    _ box: SymbolBox, scale: Double, shift: SIMD2<Double>, padding: Double, anchor: Projected,
    perspective: Double, translate: SIMD2<Double>
  ) -> CollisionGrid.Box {
    let center = anchor.screen + translate
    return CollisionGrid.Box(
      minX: center.x + (box.left * scale + shift.x - padding) * perspective,
      minY: center.y + (box.top * scale + shift.y - padding) * perspective,
      maxX: center.x + (box.right * scale + shift.x + padding) * perspective,
      maxY: center.y + (box.bottom * scale + shift.y + padding) * perspective)
  }
}
