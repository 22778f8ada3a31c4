import Testing

@testable import Subscriptions

/// The watch's schedule: earliest first, moves and removals, and a heap that does not grow with
/// the number of moves.
@Suite struct WatchScheduleTests {
  @Test func givesTheEarliestAndPopsOnlyWhatIsDue() {
    var schedule = WatchSchedule()
    schedule.set("c", due: 30)
    schedule.set("a", due: 10)
    schedule.set("b", due: 20)
    #expect(schedule.earliest() == 10)
    #expect(schedule.popDue(now: 20) == "a")
    #expect(schedule.popDue(now: 20) == "b")
    #expect(schedule.popDue(now: 20) == nil, "c is due at 30")
    #expect(schedule.earliest() == 30)
    #expect(schedule.count == 1)
  }

  @Test func aMovedOrRemovedSourceIsNotPoppedAtItsOldTime() {
    var schedule = WatchSchedule()
    schedule.set("a", due: 10)
    schedule.set("b", due: 15)
    schedule.set("a", due: 40)
    schedule.remove("b")
    #expect(schedule.earliest() == 40)
    #expect(schedule.popDue(now: 39) == nil)
    #expect(schedule.popDue(now: 40) == "a")
    #expect(schedule.earliest() == nil)
    #expect(!schedule.contains("b"))
  }

  @Test func dueCountCountsOnlyScheduledSourcesAtOrBeforeNow() {
    var schedule = WatchSchedule()
    for second in 0..<10 { schedule.set("s\(second)", due: Int64(second)) }
    #expect(schedule.dueCount(now: 4) == 5)
  }

  @Test func manyMovesKeepTheHeapWithinTwiceTheSources() {
    var schedule = WatchSchedule()
    for source in 0..<100 { schedule.set("s\(source)", due: Int64(source)) }
    for pass in 1...1_000 {
      let source = "s\(pass % 100)"
      schedule.set(source, due: Int64(pass * 100 + pass % 100))
    }
    #expect(schedule.count == 100)
    #expect(schedule.heapSize <= 200)
    var order: [Int64] = []
    var now: Int64 = 0
    while let next = schedule.earliest() {
      now = next
      _ = schedule.popDue(now: now)
      order.append(now)
    }
    #expect(order.count == 100)
    #expect(order == order.sorted())
  }
}
