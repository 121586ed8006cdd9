import TesseraNumbers

/// Colours counted in buckets of 5 bits per colour channel and 3 bits of alpha (2¹⁸ buckets),
/// with the sum of the exact channel values in each bucket; the median cut of
/// ``ColorQuantizer`` works on it.
struct ColorHistogram {
  /// One occupied bucket: its key, its pixel count and channel sums.
  struct Bucket {
    var key: Int
    var count = 0
    var sums = (0, 0, 0, 0)

    /// The bucket's coordinate along a channel (0 red … 3 alpha), scaled to 0…31.
    func coordinate(_ channel: Int) -> Int {
      switch channel {
      case 0: return key >> 13 & 31
      case 1: return key >> 8 & 31
      case 2: return key >> 3 & 31
      default: return (key & 7) << 2
      }
    }
  }

  /// A median-cut box: a range of `order` and its pixel count.
  struct Box {
    var range: Range<Int>
    var count: Int
  }

  /// The number of buckets.
  static let bucketCount = 1 << 18

  /// The bucket key of an RGBA word.
  static func bucket(of colour: UInt32) -> Int {
    Int(colour >> 27) << 13 | Int(colour >> 19 & 31) << 8 | Int(colour >> 11 & 31) << 3 | Int(colour >> 5 & 7)
  }

  private(set) var buckets: [Bucket] = []
  /// Bucket indices, reordered by the cuts so that each box is a contiguous range.
  private var order: [Int] = []

  init(_ colours: [UInt32]) {
    var slotOfKey = [Int32](repeating: -1, count: Self.bucketCount)
    for colour in colours {
      let key = Self.bucket(of: colour)
      var slot = Int(slotOfKey[key])
      if slot < 0 {
        slot = buckets.count
        slotOfKey[key] = Int32(slot)
        buckets.append(Bucket(key: key))
      }
      buckets[slot].count += 1
      buckets[slot].sums.0 += Int(colour >> 24)
      buckets[slot].sums.1 += Int(colour >> 16 & 0xFF)
      buckets[slot].sums.2 += Int(colour >> 8 & 0xFF)
      buckets[slot].sums.3 += Int(colour & 0xFF)
    }
    order = Array(buckets.indices)
  }

  /// The longest side of a box: its channel and length (0…31).
  private func longestSide(of box: Box) -> (channel: Int, length: Int) {
    var best = (channel: 0, length: -1)
    for channel in 0..<4 {
      var low = Int.max
      var high = Int.min
      for index in box.range {
        let value = buckets[order[index]].coordinate(channel)
        low = min(low, value)
        high = max(high, value)
      }
      if high - low > best.length { best = (channel, high - low) }
    }
    return best
  }

  /// Splits the buckets into at most `limit` boxes.
  mutating func medianCut(into limit: Int) -> [Box] {
    var boxes = [Box(range: 0..<buckets.count, count: buckets.reduce(0) { $0 + $1.count })]
    var sides = [longestSide(of: boxes[0])]
    while boxes.count < limit {
      // The box with the most pixels times its longest side; boxes of one bucket stay.
      var chosen = -1
      var priority = 0
      for (index, box) in boxes.enumerated() where box.range.count > 1 {
        let weight = box.count * sides[index].length
        if weight > priority {
          priority = weight
          chosen = index
        }
      }
      guard chosen >= 0 else { break }
      let box = boxes[chosen]
      let channel = sides[chosen].channel
      let buckets = self.buckets
      order[box.range].sort { first, second in
        let a = buckets[first].coordinate(channel)
        let b = buckets[second].coordinate(channel)
        return a != b ? a < b : buckets[first].key < buckets[second].key
      }
      // The pixel median, kept off both ends so that each half holds a bucket.
      var running = 0
      var cut = box.range.lowerBound + 1
      for index in box.range.dropLast() {
        running += buckets[order[index]].count
        cut = index + 1
        if running * 2 >= box.count { break }
      }
      let lower = Box(range: box.range.lowerBound..<cut, count: running)
      let upper = Box(range: cut..<box.range.upperBound, count: box.count - running)
      boxes[chosen] = lower
      sides[chosen] = longestSide(of: lower)
      boxes.append(upper)
      sides.append(longestSide(of: upper))
    }
    return boxes
  }

  /// A box's colour: the rounded mean of its pixels, as four bytes.
  func mean(of box: Box) -> [UInt8] {
    var sums = (0, 0, 0, 0)
    for index in box.range {
      let bucket = buckets[order[index]]
      sums.0 += bucket.sums.0
      sums.1 += bucket.sums.1
      sums.2 += bucket.sums.2
      sums.3 += bucket.sums.3
    }
    let half = box.count / 2
    return [sums.0, sums.1, sums.2, sums.3].map { UInt8(($0 + half) / box.count) }
  }

  /// For every bucket key, the palette entry nearest the bucket's mean colour (squared
  /// distance over the four channels; the lower index on a tie). Keys of empty buckets map to 0.
  func nearestEntries(palette: [UInt8]) -> [Int] {
    var entryOfKey = [Int](repeating: 0, count: Self.bucketCount)
    let entries = palette.count / 4
    for bucket in buckets {
      let half = bucket.count / 2
      let mean = [bucket.sums.0, bucket.sums.1, bucket.sums.2, bucket.sums.3].map { ($0 + half) / bucket.count }
      var best = 0
      var bestDistance = Int.max
      for entry in 0..<entries {
        var distance = 0
        for channel in 0..<4 {
          let difference = Int(palette[entry * 4 + channel]) - mean[channel]
          distance += difference * difference
        }
        if distance < bestDistance {
          bestDistance = distance
          best = entry
        }
      }
      entryOfKey[bucket.key] = best
    }
    return entryOfKey
  }
}
