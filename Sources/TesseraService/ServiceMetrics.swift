import Foundation
import Synchronization
import TesseraNumbers

/// Counters of the service in the Prometheus text format: requests by route and status,
/// latency histograms by route, renders and their failures, queue depth.
final class ServiceMetrics: Sendable {
  /// Upper bounds of the latency buckets, seconds.
  static let buckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

  private struct State {
    var requests: [String: Int] = [:]
    var latency: [String: (counts: [Int], sum: Double, count: Int)] = [:]
    var renders = 0
    var renderFailures = 0
    /// Render warnings by kind (glyphs: missing fonts or glyph ranges, drawn with fallbacks or
    /// left out; tiles: sources that failed; other).
    var warnings: [String: Int] = [:]
    var rejected = 0
    var timedOut = 0
    /// Raster tiles answered from a rendered metatile (cached or rendering for another
    /// request) and tiles whose metatile was rendered for them.
    var tileCacheHits = 0
    var tileCacheMisses = 0
  }

  private let state = Mutex(State())

  func record(route: String, status: Int, seconds: Double) {
    state.withLock { state in
      state.requests["route=\"\(route)\",status=\"\(status)\"", default: 0] += 1
      var entry = state.latency[route] ?? (Array(repeating: 0, count: Self.buckets.count), 0, 0)
      for (index, bound) in Self.buckets.enumerated() where seconds <= bound { entry.counts[index] += 1 }
      entry.sum += seconds
      entry.count += 1
      state.latency[route] = entry
      if status == 503 { state.rejected += 1 }
      if status == 504 { state.timedOut += 1 }
    }
  }

  /// Counts a render's warnings by kind.
  func warned(_ messages: [String]) {
    state.withLock { state in
      for message in messages { state.warnings[Self.kind(of: message), default: 0] += 1 }
    }
  }

  static func kind(of message: String) -> String {
    let lower = message.lowercased()
    if lower.contains("glyph") || lower.contains("font") { return "glyphs" }
    if lower.contains("tile") || lower.contains("source") { return "tiles" }
    return "other"
  }

  /// Counts a raster tile request: served from a metatile already rendered or rendering
  /// (`cached`), or rendering its metatile.
  func tileServed(cached: Bool) {
    state.withLock { state in
      if cached { state.tileCacheHits += 1 } else { state.tileCacheMisses += 1 }
    }
  }

  func rendered(failed: Bool) {
    state.withLock { state in
      state.renders += 1
      if failed { state.renderFailures += 1 }
    }
  }

  /// The exposition text, with the queue depth and workers given.
  func text(queued: Int, inFlight: Int, workers: Int) -> String {
    state.withLock { state in
      var lines = [
        "# HELP tessera_requests_total HTTP requests answered, by route and status.",
        "# TYPE tessera_requests_total counter",
      ]
      for (labels, count) in state.requests.sorted(by: { $0.key < $1.key }) {
        lines.append("tessera_requests_total{\(labels)} \(count)")
      }
      lines += [
        "# HELP tessera_request_seconds Time from a request's arrival to its answer.",
        "# TYPE tessera_request_seconds histogram",
      ]
      for (route, entry) in state.latency.sorted(by: { $0.key < $1.key }) {
        for (index, bound) in Self.buckets.enumerated() {
          lines.append("tessera_request_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(entry.counts[index])")
        }
        lines.append("tessera_request_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(entry.count)")
        lines.append("tessera_request_seconds_sum{route=\"\(route)\"} \(entry.sum)")
        lines.append("tessera_request_seconds_count{route=\"\(route)\"} \(entry.count)")
      }
      lines +=
        [
          "# HELP tessera_renders_total Maps rendered.", "# TYPE tessera_renders_total counter",
          "tessera_renders_total \(state.renders)",
          "# HELP tessera_tile_cache_total Raster tile requests by whether their metatile was rendered already.",
          "# TYPE tessera_tile_cache_total counter",
          "tessera_tile_cache_total{result=\"hit\"} \(state.tileCacheHits)",
          "tessera_tile_cache_total{result=\"miss\"} \(state.tileCacheMisses)",
          "# HELP tessera_render_failures_total Renders that failed.", "# TYPE tessera_render_failures_total counter",
          "tessera_render_failures_total \(state.renderFailures)",
          "# HELP tessera_render_warnings_total Render warnings by kind (glyphs: missing fonts or glyph ranges).",
          "# TYPE tessera_render_warnings_total counter",
        ]
        + state.warnings.sorted(by: { $0.key < $1.key }).map {
          "tessera_render_warnings_total{kind=\"\($0.key)\"} \($0.value)"
        }
        + [
          "# HELP tessera_rejected_total Requests answered 503 because the queue was full.",
          "# TYPE tessera_rejected_total counter", "tessera_rejected_total \(state.rejected)",
          "# HELP tessera_deadline_exceeded_total Requests answered 504 at their deadline.",
          "# TYPE tessera_deadline_exceeded_total counter", "tessera_deadline_exceeded_total \(state.timedOut)",
          "# HELP tessera_queue_depth Renders waiting for a worker.", "# TYPE tessera_queue_depth gauge",
          "tessera_queue_depth \(queued)",
          "# HELP tessera_in_flight Renders waiting or rendering.", "# TYPE tessera_in_flight gauge",
          "tessera_in_flight \(inFlight)",
          "# HELP tessera_workers Render threads.", "# TYPE tessera_workers gauge", "tessera_workers \(workers)",
        ]
      return lines.joined(separator: "\n") + "\n"
    }
  }

  /// The connection lines: connections open by kind (ordinary, reserve) and connections closed
  /// at a deadline by what was late (head, body, answer).
  static func connectionText(_ stats: HTTPConnectionStats) -> String {
    [
      "# HELP tessera_connections_open Connections open, ordinary and in the reserve kept for probes.",
      "# TYPE tessera_connections_open gauge", "tessera_connections_open{kind=\"ordinary\"} \(stats.open)",
      "tessera_connections_open{kind=\"reserve\"} \(stats.openReserve)",
      "# HELP tessera_connection_deadlines_total Connections closed because a request's head or body, or an answer, was not through by its deadline.",
      "# TYPE tessera_connection_deadlines_total counter",
      "tessera_connection_deadlines_total{phase=\"head\"} \(stats.headDeadlines)",
      "tessera_connection_deadlines_total{phase=\"body\"} \(stats.bodyDeadlines)",
      "tessera_connection_deadlines_total{phase=\"send\"} \(stats.sendDeadlines)",
      "# HELP tessera_reserve_evictions_total Reserve connections closed to make room before they sent a request.",
      "# TYPE tessera_reserve_evictions_total counter", "tessera_reserve_evictions_total \(stats.reserveEvictions)",
    ].joined(separator: "\n") + "\n"
  }
}
