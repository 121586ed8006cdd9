import TesseraNumbers

/// MapLibre's icon quads: the image with its texel of padding scaled to the icon's box; an
/// icon fitted around text (`icon-text-fit`) with stretch zones is cut into a grid where
/// only the stretch zones grow (the other parts keep their size in points, as pixel
/// offsets), its `content` area laid over the text.
enum IconQuads {
  /// One cut through the image: image pixels in fixed parts and in stretch zones before it.
  struct Cut {
    let fixed: Double
    let stretch: Double
  }

  /// The length of `zones` within `low…high`.
  static func sum(_ zones: [(Double, Double)], _ low: Double, _ high: Double) -> Double {
    zones.reduce(0) { $0 + max(0, min(high, $1.1) - max(low, $1.0)) }
  }

  static func cuts(_ zones: [(Double, Double)], fixed: Double, stretch: Double) -> [Cut] {
    var cuts = [Cut(fixed: -1, stretch: 0)]
    for (start, end) in zones {
      let last = cuts[cuts.count - 1].stretch
      cuts.append(Cut(fixed: start - last, stretch: last))
      cuts.append(Cut(fixed: start - last, stretch: last + (end - start)))
    }
    cuts.append(Cut(fixed: fixed + 1, stretch: stretch))
    return cuts
  }

  static func make(_ icon: ShapedIcon, fitted: Bool) -> [SymbolQuad] {
    let image = icon.image
    let (imageWidth, imageHeight) = (image.width, image.height)
    let iconWidth = icon.box.width
    let iconHeight = icon.box.height
    let stretchX = image.stretchX.isEmpty ? [(0, imageWidth)] : image.stretchX
    let stretchY = image.stretchY.isEmpty ? [(0, imageHeight)] : image.stretchY
    let stretchWidth = sum(stretchX, 0, imageWidth)
    let stretchHeight = sum(stretchY, 0, imageHeight)
    let fixedWidth = imageWidth - stretchWidth
    let fixedHeight = imageHeight - stretchHeight
    var stretchOffsetX = 0.0
    var stretchOffsetY = 0.0
    var stretchContentWidth = stretchWidth
    var stretchContentHeight = stretchHeight
    var fixedOffsetX = 0.0
    var fixedOffsetY = 0.0
    var fixedContentWidth = fixedWidth
    var fixedContentHeight = fixedHeight
    if fitted, let (left, top, right, bottom) = image.content {
      stretchOffsetX = sum(stretchX, 0, left)
      stretchOffsetY = sum(stretchY, 0, top)
      stretchContentWidth = sum(stretchX, left, right)
      stretchContentHeight = sum(stretchY, top, bottom)
      fixedOffsetX = left - stretchOffsetX
      fixedOffsetY = top - stretchOffsetY
      fixedContentWidth = right - left - stretchContentWidth
      fixedContentHeight = bottom - top - stretchContentHeight
    }
    func em(_ stretch: Double, _ size: Double, _ iconSize: Double, _ origin: Double) -> Double {
      size == 0 ? origin : origin + iconSize * stretch / size
    }
    func px(_ fixed: Double, _ fixedSize: Double, _ stretch: Double, _ stretchSize: Double) -> Double {
      stretchSize == 0 ? fixed : fixed - fixedSize * stretch / stretchSize
    }
    let ratio = image.pixelRatio
    let rotation = icon.rotation * .pi / 180
    func box(_ left: Cut, _ top: Cut, _ right: Cut, _ bottom: Cut) -> SymbolQuad {
      let leftEm = em(left.stretch - stretchOffsetX, stretchContentWidth, iconWidth, icon.box.left)
      let leftPx = px(left.fixed - fixedOffsetX, fixedContentWidth, left.stretch, stretchWidth)
      let topEm = em(top.stretch - stretchOffsetY, stretchContentHeight, iconHeight, icon.box.top)
      let topPx = px(top.fixed - fixedOffsetY, fixedContentHeight, top.stretch, stretchHeight)
      let rightEm = em(right.stretch - stretchOffsetX, stretchContentWidth, iconWidth, icon.box.left)
      let rightPx = px(right.fixed - fixedOffsetX, fixedContentWidth, right.stretch, stretchWidth)
      let bottomEm = em(bottom.stretch - stretchOffsetY, stretchContentHeight, iconHeight, icon.box.top)
      let bottomPx = px(bottom.fixed - fixedOffsetY, fixedContentHeight, bottom.stretch, stretchHeight)
      let x1 = Float(left.stretch + left.fixed)
      let x2 = Float(right.stretch + right.fixed)
      let y1 = Float(top.stretch + top.fixed)
      let y2 = Float(bottom.stretch + bottom.fixed)
      let origin = SIMD2(image.paddedTexture.x + 1, image.paddedTexture.y + 1)
      var quad = SymbolQuad(
        topLeft: SIMD2(leftEm, topEm), topRight: SIMD2(rightEm, topEm), bottomLeft: SIMD2(leftEm, bottomEm),
        bottomRight: SIMD2(rightEm, bottomEm),
        texture: SIMD4(origin.x + x1, origin.y + y1, origin.x + x2, origin.y + y2), section: 0)
      quad.pixelOffsets = SIMD4(leftPx, topPx, rightPx, bottomPx) / ratio
      quad.minimumScale = SIMD2(
        iconWidth == 0 ? 0 : fixedContentWidth / ratio / iconWidth,
        iconHeight == 0 ? 0 : fixedContentHeight / ratio / iconHeight)
      quad.rotation = rotation
      return quad
    }
    guard fitted, !image.stretchX.isEmpty || !image.stretchY.isEmpty else {
      return [
        box(
          Cut(fixed: 0, stretch: -1), Cut(fixed: 0, stretch: -1), Cut(fixed: 0, stretch: imageWidth + 1),
          Cut(fixed: 0, stretch: imageHeight + 1))
      ]
    }
    let xCuts = cuts(stretchX, fixed: fixedWidth, stretch: stretchWidth)
    let yCuts = cuts(stretchY, fixed: fixedHeight, stretch: stretchHeight)
    var quads: [SymbolQuad] = []
    for xi in 0..<(xCuts.count - 1) {
      for yi in 0..<(yCuts.count - 1) {
        quads.append(box(xCuts[xi], yCuts[yi], xCuts[xi + 1], yCuts[yi + 1]))
      }
    }
    return quads
  }
}
