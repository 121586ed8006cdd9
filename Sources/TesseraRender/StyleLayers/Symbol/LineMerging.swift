import TesseraNumbers

/// MapLibre's merging of line features before labels are placed along them: features of the
/// same label text whose first lines meet end to start are joined into one line (so that a
/// road cut into pieces is labelled at the spacing along its whole length, not once per
/// piece).
enum LineMerging {
  /// Each feature's text (nil: never merged) and lines (the first is merged). Returns each
  /// feature's lines after merging; features merged into another get nil.
  static func merge(texts: [String?], lines: [[[SIMD2<Double>]]]) -> [[[SIMD2<Double>]]?] {
    struct Key: Hashable {
      let text: String
      let x: Double
      let y: Double
    }
    var result: [[[SIMD2<Double>]]?] = lines
    var leftIndex: [Key: Int] = [:]
    var rightIndex: [Key: Int] = [:]
    func key(_ text: String, _ line: [SIMD2<Double>], right: Bool) -> Key {
      let point = right ? line[line.count - 1] : line[0]
      return Key(text: text, x: point.x, y: point.y)
    }
    func mergeFromRight(_ leftKey: Key, _ rightKey: Key, _ line: [SIMD2<Double>]) -> Int {
      let index = rightIndex.removeValue(forKey: leftKey)!
      rightIndex[rightKey] = index
      var merged = result[index]![0]
      merged.removeLast()
      result[index]![0] = merged + line
      return index
    }
    func mergeFromLeft(_ leftKey: Key, _ rightKey: Key, _ line: [SIMD2<Double>]) -> Int {
      let index = leftIndex.removeValue(forKey: rightKey)!
      leftIndex[leftKey] = index
      var merged = result[index]![0]
      merged.removeFirst()
      result[index]![0] = line + merged
      return index
    }
    for index in lines.indices {
      guard let text = texts[index], let line = lines[index].first, line.count > 1 else { continue }
      let leftKey = key(text, line, right: false)
      let rightKey = key(text, line, right: true)
      if let left = rightIndex[leftKey], let right = leftIndex[rightKey], left != right {
        // Lines of the same text at both ends: all three become one.
        let j = mergeFromLeft(leftKey, rightKey, line)
        let i = mergeFromRight(leftKey, rightKey, result[j]![0])
        leftIndex[leftKey] = nil
        rightIndex[rightKey] = nil
        rightIndex[key(text, result[i]![0], right: true)] = i
        result[j] = nil
        result[index] = nil
      } else if rightIndex[leftKey] != nil {
        _ = mergeFromRight(leftKey, rightKey, line)
        result[index] = nil
      } else if leftIndex[rightKey] != nil {
        _ = mergeFromLeft(leftKey, rightKey, line)
        result[index] = nil
      } else {
        leftIndex[leftKey] = index
        rightIndex[rightKey] = index
      }
    }
    return result
  }
}
