import Dispatch
import Foundation
import Synchronization
import TesseraJSON
import TesseraNumbers

/// The service's log lines: one JSON object per line, every field escaped by the JSON writer,
/// so no value (a request's path, method, a warning) can end a line or forge another.
public enum ServiceLog {
  /// Takes one line (with its newline).
  public typealias Sink = @Sendable (String) -> Void

  private static let queue = DispatchQueue(label: "tessera.log")
  private static let pending = Atomic<Int>(0)
  private static let dropped = Atomic<Int>(0)
  /// Lines waiting to be written beyond which new ones are dropped (and counted in a line of
  /// their own once writing catches up).
  static let pendingLimit = 10_000

  /// Standard error, written in order on a queue of its own: a slow reader of standard error
  /// never holds a thread that serves requests.
  public static let standardError: Sink = { line in
    guard pending.add(1, ordering: .relaxed).newValue <= pendingLimit else {
      pending.subtract(1, ordering: .relaxed)
      dropped.add(1, ordering: .relaxed)
      return
    }
    queue.async {
      let lost = dropped.exchange(0, ordering: .relaxed)
      if lost > 0 {
        FileHandle.standardError.write(Data(ServiceLog.line([("droppedLogLines", .number(Double(lost)))]).utf8))
      }
      FileHandle.standardError.write(Data(line.utf8))
      pending.subtract(1, ordering: .relaxed)
    }
  }

  /// Waits until the lines given to ``standardError`` so far are written.
  public static func flush() { queue.sync {} }

  /// A JSON object of `fields` in order, on one line with its newline.
  public static func line(_ fields: [(String, JSONValue)]) -> String {
    JSONValue.object(JSONObject(fields)).serialized() + "\n"
  }
}
