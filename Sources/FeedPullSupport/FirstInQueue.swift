/// A first-in, first-out queue on an array, taken from the front by place: `popFirst` moves no
/// element (`Array.removeFirst` moves every one left behind it). What was taken is let go as the
/// queue goes, never kept until it runs dry: a queue refilled before it empties (a scheduler's
/// claimed sources, a run's events) once kept everything it ever held, hundreds of MiB over a
/// long pass. The taken prefix is dropped once it is longer than what waits, so each element is
/// moved at most once on average.
///
/// Inlinable: a queue is taken from in every step of the scheduler and the admission, and an
/// unspecialized generic across modules paid some 900 instructions a `popFirst` for metadata
/// and witness calls.
public struct FirstInQueue<Element> {
  @usableFromInline var elements: [Element] = []
  @usableFromInline var head = 0

  /// An empty queue.
  @inlinable public init() {}

  /// A queue of `elements`, the first to be taken first.
  @inlinable public init(_ elements: [Element]) {
    self.elements = elements
  }

  /// How many wait.
  @inlinable public var count: Int { elements.count - head }

  /// Whether none waits.
  @inlinable public var isEmpty: Bool { head == elements.count }

  /// The elements waiting, in order.
  @inlinable public var waiting: ArraySlice<Element> { elements[head...] }

  /// The elements the queue holds, those taken and not yet let go included: fewer than twice
  /// the most that waited at once, plus a few (for tests of that bound).
  @inlinable public var stored: Int { elements.count }

  /// The front element, without taking it; nil when none waits.
  @inlinable public var first: Element? { head < elements.count ? elements[head] : nil }

  /// Takes out the first waiting element that `matches` (a waiting thing withdrawn); its place
  /// among those waiting (0: it was the front), or nil when none matches.
  @inlinable public mutating func remove(where matches: (Element) -> Bool) -> Int? {
    guard let index = elements[head...].firstIndex(where: matches) else { return nil }
    elements.remove(at: index)
    let place = index - head
    if head == elements.count {
      elements.removeAll(keepingCapacity: true)
      head = 0
    }
    return place
  }

  /// Adds `element` at the back.
  @inlinable public mutating func append(_ element: Element) {
    elements.append(element)
  }

  /// Puts `element` back at the front (taken, then not used after all).
  @inlinable public mutating func putBack(_ element: Element) {
    if head > 0 {
      head -= 1
      elements[head] = element
    } else {
      elements.insert(element, at: 0)
    }
  }

  /// Takes the front element; nil when none waits.
  @inlinable public mutating func popFirst() -> Element? {
    guard head < elements.count else { return nil }
    let first = elements[head]
    head += 1
    if head == elements.count {
      elements.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 16, head * 2 >= elements.count {
      elements.removeSubrange(..<head)
      head = 0
    }
    return first
  }

  /// Takes every waiting element.
  @inlinable public mutating func removeAll() {
    elements.removeAll(keepingCapacity: true)
    head = 0
  }
}

extension FirstInQueue: Sendable where Element: Sendable {}
