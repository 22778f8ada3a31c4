/// When each watched source is next due, earliest first: a binary heap of (due, source) beside a
/// table of each source's current due time. Moving or removing a source only updates the table;
/// the heap entry it leaves behind is stale and skipped when it reaches the top (lazy deletion),
/// and the heap is rebuilt when stale entries outnumber live ones, so its size stays within
/// twice the number of sources however long the watch runs.
struct WatchSchedule {
  private struct Entry {
    var due: Int64
    var source: String
  }

  private var heap: [Entry] = []
  private var dueTimes: [String: Int64] = [:]

  /// Sources on the schedule (in flight ones are not).
  var count: Int { dueTimes.count }

  /// Puts `source` on the schedule at `due`, moving it when it is there already.
  mutating func set(_ source: String, due: Int64) {
    guard dueTimes[source] != due else { return }
    dueTimes[source] = due
    push(Entry(due: due, source: source))
    compactIfStale()
  }

  /// Takes `source` off the schedule.
  mutating func remove(_ source: String) {
    guard dueTimes.removeValue(forKey: source) != nil else { return }
    compactIfStale()
  }

  func contains(_ source: String) -> Bool { dueTimes[source] != nil }

  /// Entries in the heap, stale ones included (for tests of its bound).
  var heapSize: Int { heap.count }

  /// The earliest due time, nil when nothing is scheduled.
  mutating func earliest() -> Int64? {
    dropStaleTop()
    return heap.first?.due
  }

  /// Takes off the schedule and returns the earliest source due at or before `now`.
  mutating func popDue(now: Int64) -> String? {
    dropStaleTop()
    guard let top = heap.first, top.due <= now else { return nil }
    popTop()
    dueTimes[top.source] = nil
    return top.source
  }

  /// How many sources are due at or before `now` (a walk over the table: for statistics only).
  func dueCount(now: Int64) -> Int {
    dueTimes.values.reduce(0) { $0 + ($1 <= now ? 1 : 0) }
  }

  private mutating func dropStaleTop() {
    while let top = heap.first, dueTimes[top.source] != top.due { popTop() }
  }

  private mutating func compactIfStale() {
    guard heap.count > 64, heap.count > 2 * dueTimes.count else { return }
    heap = dueTimes.map { Entry(due: $0.value, source: $0.key) }
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
  }

  private mutating func push(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].due < heap[parent].due else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func popTop() {
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    if !heap.isEmpty { siftDown(0) }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
      if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
