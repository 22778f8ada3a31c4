import Testing

@testable import Subscriptions

/// The schedule of named sources: earliest first (ties in the order given), moves and removals,
/// and a heap that does not grow with the number of moves; and the compact list of names.
@Suite struct SourceScheduleTests {
  @Test func givesTheEarliestAndPopsOnlyWhatIsDue() {
    var schedule = SourceSchedule()
    schedule.set(2, due: .seconds(30))
    schedule.set(0, due: .seconds(10))
    schedule.set(1, due: .seconds(20))
    #expect(schedule.earliest()?.due == .seconds(10))
    #expect(schedule.popDue(now: .seconds(20))?.id == 0)
    #expect(schedule.popDue(now: .seconds(20))?.id == 1)
    #expect(schedule.popDue(now: .seconds(20)) == nil, "2 is due at 30")
    #expect(schedule.earliest()?.due == .seconds(30))
    #expect(schedule.count == 1)
  }

  @Test func sourcesDueTogetherComeInTheOrderGiven() {
    var schedule = SourceSchedule()
    for id in [5, 3, 9, 0] { schedule.set(id, due: .zero) }
    var order: [Int] = []
    while let next = schedule.popDue(now: .zero) { order.append(next.id) }
    #expect(order == [0, 3, 5, 9])
  }

  @Test func sourcesAllDueAtTheStartComeInOrderWithoutHeapEntries() {
    var schedule = SourceSchedule()
    schedule.setAllDue(6)
    #expect(schedule.heapSize == 0)
    schedule.set(1, due: .seconds(50))
    schedule.remove(3)
    schedule.set(4, due: .seconds(-1))
    #expect(schedule.count == 5)
    var order: [Int] = []
    while let next = schedule.popDue(now: .zero) { order.append(next.id) }
    #expect(order == [4, 0, 2, 5])
    #expect(schedule.earliest()?.id == 1)
    schedule.set(0, due: .zero)
    #expect(schedule.popDue(now: .zero)?.id == 0)
    #expect(schedule.count == 1)
  }

  @Test func aMovedOrRemovedSourceIsNotPoppedAtItsOldTime() {
    var schedule = SourceSchedule()
    schedule.set(0, due: .seconds(10))
    schedule.set(1, due: .seconds(15))
    schedule.set(0, due: .seconds(40))
    schedule.remove(1)
    #expect(schedule.earliest()?.due == .seconds(40))
    #expect(schedule.popDue(now: .seconds(39)) == nil)
    #expect(schedule.popDue(now: .seconds(40))?.id == 0)
    #expect(schedule.earliest() == nil)
    #expect(schedule.due(1) == nil)
  }

  @Test func dueCountCountsOnlyScheduledSourcesAtOrBeforeNow() {
    var schedule = SourceSchedule()
    for second in 0..<10 { schedule.set(second, due: .seconds(Int64(second))) }
    #expect(schedule.dueCount(now: .seconds(4)) == 5)
  }

  @Test func manyMovesKeepTheHeapWithinTwiceTheSources() {
    var schedule = SourceSchedule()
    for source in 0..<100 { schedule.set(source, due: .seconds(Int64(source))) }
    for pass in 1...1_000 {
      schedule.set(pass % 100, due: .seconds(Int64(pass * 100 + pass % 100)))
    }
    #expect(schedule.count == 100)
    #expect(schedule.heapSize <= 200)
    var order: [Duration] = []
    while let next = schedule.earliest() {
      _ = schedule.popDue(now: next.due)
      order.append(next.due)
    }
    #expect(order.count == 100)
    #expect(order == order.sorted())
  }

  @Test func namesAreKeptOnceInOrderAndFoundAgain() {
    var names = SourceList(["b", "a", "b", "", "https://example.com/feed"])
    #expect(names.count == 4)
    #expect((0..<names.count).map { names[$0] } == ["b", "a", "", "https://example.com/feed"])
    #expect(names.index(of: "a") == 1)
    #expect(names.index(of: "") == 2)
    #expect(names.index(of: "c") == nil)
    for index in 0..<10_000 { names.append("https://host\(index).example/feed") }
    #expect(names.count == 10_004)
    #expect(names.index(of: "https://host4321.example/feed") == 4 + 4321)
    #expect(names[4 + 9999] == "https://host9999.example/feed")
  }
}
