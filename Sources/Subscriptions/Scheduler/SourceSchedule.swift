/// When each named source is next looked at, earliest first (ties in the order the sources were
/// given): a binary heap of (due, number) beside a table of each source's current due time.
/// Moving or removing a source only updates the table; the heap entry it leaves behind is stale
/// and skipped when it reaches the top (lazy deletion), and the heap is rebuilt when stale
/// entries outnumber live ones, so that it never holds more than twice the sources. Whole
/// seconds, 16 bytes an entry and 8 a source: a watch of a million sources holds it in 40 MB.
struct SourceSchedule: Sendable {
  private struct Entry {
    var due: Int64
    var id: Int32
  }

  private static let off = Int64.min

  private var heap: [Entry] = []
  /// The due time of each source, `off` when it is not on the schedule.
  private var dueTimes: [Int64] = []
  private(set) var count = 0
  /// Sources `first..<end` were put on the schedule together, due at once (a run's list when it
  /// starts): they are taken in order from here, with no heap entry of their own; one since
  /// moved or removed is skipped (its table entry is no longer 0).
  private var first = 0
  private var end = 0

  /// Room for sources numbered below `capacity`.
  mutating func reserve(_ capacity: Int) {
    if dueTimes.count < capacity {
      dueTimes.append(contentsOf: repeatElement(Self.off, count: capacity - dueTimes.count))
    }
  }

  /// Puts sources `0..<count` on the schedule, all due at once (an empty schedule's start).
  mutating func setAllDue(_ total: Int) {
    precondition(count == 0 && heap.isEmpty, "setAllDue starts an empty schedule")
    dueTimes = Array(repeating: 0, count: total)
    count = total
    first = 0
    end = total
  }

  /// Puts source `id` on the schedule at `due`, moving it when it is there already.
  mutating func set(_ id: Int, due: Duration) {
    reserve(id + 1)
    let seconds = max(due.wholeSeconds, Self.off + 1)
    guard dueTimes[id] != seconds else { return }
    if dueTimes[id] == Self.off { count += 1 }
    dueTimes[id] = seconds
    push(Entry(due: seconds, id: Int32(id)))
    compactIfStale()
  }

  /// Takes source `id` off the schedule.
  mutating func remove(_ id: Int) {
    guard id < dueTimes.count, dueTimes[id] != Self.off else { return }
    dueTimes[id] = Self.off
    count -= 1
    compactIfStale()
  }

  /// When source `id` is due; nil when it is not on the schedule.
  func due(_ id: Int) -> Duration? {
    guard id < dueTimes.count, dueTimes[id] != Self.off else { return nil }
    return .seconds(dueTimes[id])
  }

  /// Entries in the heap, stale ones included (for tests of its bound).
  var heapSize: Int { heap.count }

  /// The earliest due time and its source; nil when nothing is scheduled.
  mutating func earliest() -> (due: Duration, id: Int)? {
    next().map { (.seconds($0.due), Int($0.id)) }
  }

  /// Takes off the schedule and returns the earliest source due at or before `now`, with its
  /// due time.
  mutating func popDue(now: Duration) -> (id: Int, due: Duration)? {
    guard let top = next(), top.due <= now.wholeSeconds else { return nil }
    if first < end, Int(top.id) == first, top.due == 0 {
      first += 1
    } else {
      popTop()
    }
    dueTimes[Int(top.id)] = Self.off
    count -= 1
    return (Int(top.id), .seconds(top.due))
  }

  /// The earliest live entry, of the run's first sources or of the heap.
  private mutating func next() -> Entry? {
    while first < end, dueTimes[first] != 0 { first += 1 }
    dropStaleTop()
    let initial = first < end ? Entry(due: 0, id: Int32(first)) : nil
    switch (initial, heap.first) {
    case (let initial?, let top?): return Self.before(top, initial) ? top : initial
    case (let initial?, nil): return initial
    case (nil, let top): return top
    }
  }

  /// How many sources are due at or before `now` (a walk over the table: for statistics only).
  func dueCount(now: Duration) -> Int {
    let limit = now.wholeSeconds
    return dueTimes.reduce(0) { $0 + ($1 != Self.off && $1 <= limit ? 1 : 0) }
  }

  private mutating func dropStaleTop() {
    while let top = heap.first, dueTimes[Int(top.id)] != top.due { popTop() }
  }

  private mutating func compactIfStale() {
    guard heap.count > 64, heap.count > 2 * count else { return }
    heap.removeAll(keepingCapacity: true)
    first = 0
    end = 0
    for (id, due) in dueTimes.enumerated() where due != Self.off {
      heap.append(Entry(due: due, id: Int32(id)))
    }
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
  }

  private static func before(_ left: Entry, _ right: Entry) -> Bool {
    left.due < right.due || (left.due == right.due && left.id < right.id)
  }

  private mutating func push(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.before(heap[child], heap[parent]) else { break }
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
      var first = parent
      if left < heap.count, Self.before(heap[left], heap[first]) { first = left }
      if right < heap.count, Self.before(heap[right], heap[first]) { first = right }
      guard first != parent else { return }
      heap.swapAt(parent, first)
      parent = first
    }
  }
}
