/// The sources a run was given, each once, numbered in the order given (a source given twice is
/// pulled once), in a compact form: the names' bytes side by side in one buffer and an
/// open-addressing table of their numbers, about 8 bytes a source beside its text, where an
/// array of `String`s and a `Set` of them cost several allocations and some 100 bytes more each.
/// A list of a million sources stays a list of a million sources.
struct SourceNames: Sendable {
  private var bytes: [UInt8] = []
  /// Where each name ends in `bytes` (it starts where the previous one ends).
  private var ends: [Int] = []
  /// Slot → number + 1 (0: empty); the table is kept at most half full.
  private var slots: [Int32] = Array(repeating: 0, count: 16)

  /// The number of distinct sources.
  var count: Int { ends.count }

  init() {}

  /// The sources of `names`, each once, in order.
  init(_ names: some Sequence<String>) {
    for name in names { insert(name) }
  }

  /// The name of source `id`.
  subscript(id: Int) -> String {
    let start = id == 0 ? 0 : ends[id - 1]
    return bytes.withUnsafeBufferPointer { buffer in
      String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<ends[id]]), as: UTF8.self)
    }
  }

  /// Adds `name` unless it is there; its number either way.
  @discardableResult
  mutating func insert(_ name: String) -> (id: Int, inserted: Bool) {
    var name = name
    return name.withUTF8 { insert(bytes: $0) }
  }

  /// The number of `name`, nil when it is not one of the sources.
  func id(of name: String) -> Int? {
    var name = name
    return name.withUTF8 { find($0).id }
  }

  /// Whether `name` is one of the sources.
  func contains(_ name: String) -> Bool { id(of: name) != nil }

  private mutating func insert(bytes name: UnsafeBufferPointer<UInt8>) -> (id: Int, inserted: Bool)
  {
    let found = find(name)
    if let id = found.id { return (id, false) }
    let id = ends.count
    bytes.append(contentsOf: name)
    ends.append(bytes.count)
    slots[found.slot] = Int32(id + 1)
    if ends.count * 2 > slots.count { grow() }
    return (id, true)
  }

  /// The number of `name`, or the empty slot where it would go.
  private func find(_ name: UnsafeBufferPointer<UInt8>) -> (id: Int?, slot: Int) {
    let mask = slots.count - 1
    var slot = Self.hash(name) & mask
    while true {
      let entry = Int(slots[slot])
      if entry == 0 { return (nil, slot) }
      if equals(entry - 1, name) { return (entry - 1, slot) }
      slot = (slot + 1) & mask
    }
  }

  private func equals(_ id: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = id == 0 ? 0 : ends[id - 1]
    guard ends[id] - start == name.count else { return false }
    return bytes.withUnsafeBufferPointer { buffer in
      name.isEmpty || memcmp(buffer.baseAddress! + start, name.baseAddress!, name.count) == 0
    }
  }

  private mutating func grow() {
    var table = [Int32](repeating: 0, count: slots.count * 2)
    let mask = table.count - 1
    bytes.withUnsafeBufferPointer { buffer in
      for id in ends.indices {
        let start = id == 0 ? 0 : ends[id - 1]
        var slot = Self.hash(UnsafeBufferPointer(rebasing: buffer[start..<ends[id]])) & mask
        while table[slot] != 0 { slot = (slot + 1) & mask }
        table[slot] = Int32(id + 1)
      }
    }
    slots = table
  }

  private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(name))
    return hasher.finalize()
  }
}

#if canImport(Glibc)
  import Glibc
#endif
