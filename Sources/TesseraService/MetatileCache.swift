import Dispatch
import Synchronization
import Tessera
import TesseraImage
import TesseraNumbers

/// Rendered metatiles kept for the requests of their other tiles, and requests coalesced: the
/// tiles of one metatile asked for at once are rendered once, every request waiting for that
/// render. Bounded in bytes (least recently used metatiles dropped first).
final class MetatileCache: Sendable {
  typealias Tiles = [TileID: RGBAImage]
  typealias Waiter = @Sendable (Result<Tiles, any Error>) -> Void

  private struct State {
    var cached: [String: (tiles: Tiles, bytes: Int, used: UInt64)] = [:]
    var bytes = 0
    var clock: UInt64 = 0
    var waiting: [String: [Waiter]] = [:]
  }

  private let state = Mutex(State())
  let byteLimit: Int

  init(byteLimit: Int) { self.byteLimit = byteLimit }

  /// What happened to a request.
  enum Lookup {
    /// The tiles were cached.
    case cached(Tiles)
    /// Another request is rendering the metatile; `waiter` will be called.
    case joined
    /// Nobody is: the caller renders and calls ``finish(_:with:)``.
    case render
  }

  /// Looks `key` up; unless cached, `waiter` is called when the metatile's render finishes.
  func lookup(_ key: String, waiter: @escaping Waiter) -> Lookup {
    state.withLock { state in
      if var entry = state.cached[key] {
        state.clock += 1
        entry.used = state.clock
        state.cached[key] = entry
        return .cached(entry.tiles)
      }
      if state.waiting[key] != nil {
        state.waiting[key]!.append(waiter)
        return .joined
      }
      state.waiting[key] = [waiter]
      return .render
    }
  }

  /// Ends a render: caches the tiles (when they fit) and calls every waiter.
  func finish(_ key: String, with result: Result<Tiles, any Error>) {
    let waiters = state.withLock { state -> [Waiter] in
      if case .success(let tiles) = result {
        let bytes = tiles.values.reduce(0) { $0 + $1.pixels.count }
        if bytes <= byteLimit {
          state.clock += 1
          state.cached[key] = (tiles, bytes, state.clock)
          state.bytes += bytes
          while state.bytes > byteLimit, let oldest = state.cached.min(by: { $0.value.used < $1.value.used }) {
            state.bytes -= oldest.value.bytes
            state.cached[oldest.key] = nil
          }
        }
      }
      return state.waiting.removeValue(forKey: key) ?? []
    }
    for waiter in waiters { waiter(result) }
  }

  /// Bytes of pixels held.
  var bytesHeld: Int { state.withLock { $0.bytes } }
}
