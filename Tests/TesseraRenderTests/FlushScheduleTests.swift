import Testing

@testable import TesseraRender

/// When a frame's draws are flushed part-way: a fixed interval on GPUs, whenever the rasteriser
/// is idle (and enough was drawn) on software renderers.
@Suite struct FlushScheduleTests {
  /// The commands before which `schedule` flushes, over `commands` commands each drawing
  /// `vertices` vertices, with the GPU idle before the commands `idle` holds.
  static func flushPoints(
    _ rule: FlushSchedule.Rule, commands: Int, vertices: Int, idle: (Int) -> Bool = { _ in true }
  ) -> (flushes: [Int], idleQuestions: Int) {
    var schedule = FlushSchedule(rule)
    var flushes: [Int] = []
    var questions = 0
    for index in 0..<commands {
      let flushesHere = schedule.flushesBeforeCommand {
        questions += 1
        return idle(index)
      }
      if flushesHere { flushes.append(index) }
      schedule.drew(vertices)
    }
    return (flushes, questions)
  }

  @Test func aFixedIntervalFlushesBeforeEveryNthCommandButTheFirst() {
    let points = FlushScheduleTests.flushPoints(.everyCommands(32), commands: 100, vertices: 3)
    #expect(points.flushes == [32, 64, 96])
    #expect(points.idleQuestions == 0, "a fixed interval never asks whether the GPU is idle")
    #expect(FlushScheduleTests.flushPoints(.everyCommands(1), commands: 4, vertices: 0).flushes == [1, 2, 3])
  }

  @Test func anIdleRasteriserIsGivenWorkOnceEnoughIsDrawn() {
    // 1,000 vertices a command, at least 2,500 before a flush: every third command at most.
    let always = FlushScheduleTests.flushPoints(.whenIdle(minimumVertices: 2500), commands: 10, vertices: 1000)
    #expect(always.flushes == [3, 6, 9])
    #expect(always.idleQuestions == 3, "the GPU is asked only once enough was drawn")
    // Busy until command 5: the work drawn meanwhile goes in one flush.
    let busy = FlushScheduleTests.flushPoints(
      .whenIdle(minimumVertices: 2500), commands: 10, vertices: 1000, idle: { $0 >= 5 })
    #expect(busy.flushes == [5, 8])
    #expect(busy.idleQuestions == 4)
  }

  @Test func aFrameDrawingNothingIsNeverFlushed() {
    #expect(FlushScheduleTests.flushPoints(.whenIdle(minimumVertices: 0), commands: 10, vertices: 0).flushes == [])
    #expect(FlushScheduleTests.flushPoints(.whenIdle(minimumVertices: 1), commands: 10, vertices: 1).flushes.count == 9)
  }

  @Test func softwareRenderersFlushWhenIdleAndGPUsAtAFixedInterval() {
    #expect(FlushSchedule.rule(softwareRenderer: true).tracksCompletion)
    #expect(FlushSchedule.rule(softwareRenderer: false) == .everyCommands(32))
    #expect(!FlushSchedule.Rule.everyCommands(32).tracksCompletion)
  }
}
