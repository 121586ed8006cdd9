import Synchronization
import TesseraGeo
import TesseraNumbers

/// Identifies a tile of a source.
package struct TileKey: Sendable, Hashable, CustomStringConvertible {
  /// The source's identity (its name).
  package let source: String
  package let tile: TileID

  package init(source: String, tile: TileID) {
    self.source = source
    self.tile = tile
  }

  package var description: String { "\(source) \(tile)" }
}

/// What loading a tile gave.
package enum TileLoadResult: Sendable {
  case tile(DecodedTile)
  /// The source has no tile here.
  case noTile
  /// Reading or decoding failed; the error names source and tile.
  case failed(TileSourceError)

  /// The decoded tile, if loading succeeded.
  package var decoded: DecodedTile? {
    if case .tile(let tile) = self { return tile }
    return nil
  }
}

/// Decoded tiles kept in memory up to a byte budget; the least recently used are dropped first.
/// "No tile here" results are kept too (they cost a few bytes), errors are not.
public final class TileCache: Sendable {
  /// The budget, in bytes.
  package let budget: Int
  private let state: Mutex<State>

  struct State {
    var entries: [TileKey: (result: TileLoadResult, size: Int, stamp: UInt64)] = [:]
    var bytes = 0
    var clock: UInt64 = 0
    /// Counts ``removeAll()`` calls: results of loads begun before the last one are not kept.
    var generation = 0
  }

  /// Makes a cache of `budget` bytes (default 256 MiB).
  public init(budget: Int = 256 << 20) {
    self.budget = budget
    state = Mutex(State())
  }

  /// The cached result for `key`, marking it recently used.
  package func result(for key: TileKey) -> TileLoadResult? {
    state.withLock { state in
      guard let entry = state.entries[key] else { return nil }
      state.clock += 1
      state.entries[key] = (entry.result, entry.size, state.clock)
      return entry.result
    }
  }

  /// The count of ``removeAll()`` calls so far: a load notes it when it begins and passes it to
  /// ``insert(_:for:loadedIn:)``.
  package var generation: Int { state.withLock { $0.generation } }

  /// Stores a result (errors are not stored), then evicts the least recently used entries
  /// beyond the budget. A result of a load begun before the last ``removeAll()`` (its
  /// `generation` older) is not stored: it may have been read from a file replaced since.
  package func insert(_ result: TileLoadResult, for key: TileKey, loadedIn generation: Int? = nil) {
    let size: Int
    switch result {
    case .tile(let tile): size = tile.byteCount
    case .noTile: size = 64
    case .failed: return
    }
    state.withLock { state in
      if let generation, generation != state.generation { return }
      state.clock += 1
      if let old = state.entries[key] { state.bytes -= old.size }
      state.entries[key] = (result, size, state.clock)
      state.bytes += size
      guard state.bytes > budget else { return }
      for (candidate, entry) in state.entries.sorted(by: { $0.value.stamp < $1.value.stamp }) {
        guard state.bytes > budget else { break }
        if candidate == key { continue }
        state.entries[candidate] = nil
        state.bytes -= entry.size
      }
    }
  }

  /// Bytes held and entry count.
  package var usage: (bytes: Int, entries: Int) {
    state.withLock { ($0.bytes, $0.entries.count) }
  }

  /// Drops everything, and what loads under way when it is called would bring.
  package func removeAll() {
    state.withLock { $0 = State(generation: $0.generation + 1) }
  }
}
