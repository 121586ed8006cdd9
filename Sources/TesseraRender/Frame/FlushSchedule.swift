import TesseraNumbers

/// When a frame's draws are handed to the GPU part-way through the frame (`glFlush`).
///
/// On llvmpipe the calling thread shades vertices and bins triangles into a *scene*, and the
/// rasteriser threads start on a scene only when it is flushed; until then they wait, and the
/// frame ends with the calling thread waiting for them. Flushing whenever they have finished
/// what they were given keeps them busy while the rest of the frame is encoded: warm frames
/// of a small view (monaco-basic-small, 256×256, 135 draws) take 0.81–0.83 of the time they
/// took with a flush every 32 draws, first frames 0.94–0.99 (docs/performance.md). Where the flushes fall
/// never changes a pixel: llvmpipe draws every scene into the same target in order.
///
/// GPUs keep the fixed interval: their drivers queue the work themselves.
package struct FlushSchedule: Sendable {
  /// The rule a frame's flushes follow.
  package enum Rule: Sendable, Equatable {
    /// Before every `commands`-th command of the frame (the first excepted).
    case everyCommands(Int)
    /// Before a command when the GPU has finished the work flushed last and at least
    /// `minimumVertices` vertices (indices, for indexed draws) were drawn since then.
    case whenIdle(minimumVertices: Int)

    /// Whether flushes keep a fence to tell when the GPU is idle (``GLDevice/flushTracked()``).
    package var tracksCompletion: Bool {
      switch self {
      case .everyCommands: false
      case .whenIdle: true
      }
    }
  }

  /// The rule for a device: ``Rule/whenIdle(minimumVertices:)`` on software renderers,
  /// whose rasteriser threads wait for flushes, else a flush every 32 commands.
  package static func rule(softwareRenderer: Bool) -> Rule {
    softwareRenderer ? .whenIdle(minimumVertices: 2048) : .everyCommands(32)
  }

  package let rule: Rule
  /// Commands looked at in the frame so far.
  private var commandIndex = 0
  /// Vertices drawn since the frame began or the last flush.
  private var verticesSinceFlush = 0

  /// A schedule for one frame, following `rule`.
  package init(_ rule: Rule) {
    self.rule = rule
  }

  /// Whether to flush before the next command. `isIdle` says whether the GPU has finished the
  /// work flushed last; it is asked only when the rule needs it. A `true` answer counts as the
  /// flush made.
  package mutating func flushesBeforeCommand(isIdle: () -> Bool) -> Bool {
    defer { commandIndex += 1 }
    let flushes: Bool
    switch rule {
    case .everyCommands(let interval):
      flushes = commandIndex > 0 && commandIndex % max(interval, 1) == 0
    case .whenIdle(let minimum):
      flushes = verticesSinceFlush > 0 && verticesSinceFlush >= minimum && isIdle()
    }
    if flushes { verticesSinceFlush = 0 }
    return flushes
  }

  /// Counts `vertices` drawn (indices, for indexed draws; vertices times instances).
  package mutating func drew(_ vertices: Int) {
    verticesSinceFlush += max(vertices, 0)
  }
}
