import FeedPull
import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The sources a run is given, each once, numbered in the order given (a source given twice is
/// pulled once), kept compactly: the names' bytes side by side in blocks of a mebibyte (a block
/// is never copied as the list grows), 12 bytes a source to find its name and 4 of its hash, and
/// an open-addressing table of 4-byte numbers at most half full. A list of a million URLs of 45
/// bytes takes about 70 MB where an array of `String`s and a `Set` of them took some 200.
///
/// ```swift
/// var sources: SourceList = ["https://example.com/feed.xml"]
/// try sources.append(contentsOfListAt: "subscriptions.opml")
/// ```
public struct SourceList: Sendable, ExpressibleByArrayLiteral, Sequence {
  private static let blockSize = 1 << 20

  private struct Location {
    var block: UInt32
    var offset: UInt32
    var length: UInt32
  }

  private var blocks: [[UInt8]] = []
  private var locations: [Location] = []
  /// Each source's hash: the table grows without hashing every name again, and a probe that
  /// meets another name compares 4 bytes before its name's (reading the list of a million
  /// spent a fifth of its time hashing again and comparing names).
  private var hashes: [UInt32] = []
  /// Slot → number + 1 in the bits below the table's size, and above them the same bits of
  /// the name's hash (0: empty). A probe that meets another name tells it by those bits,
  /// without reading `hashes` (a random read of its own: reading a list of a million spent an
  /// eighth of its time in `find`).
  private var slots: [UInt32] = Array(repeating: 0, count: 16)

  /// The number of distinct sources.
  public var count: Int { locations.count }

  /// True when there is no source.
  public var isEmpty: Bool { locations.isEmpty }

  /// No sources.
  public init() {}

  /// The sources of `names`, each once, in order.
  public init(_ names: some Sequence<String>) {
    for name in names { append(name) }
  }

  /// The sources written out, each once, in order.
  public init(arrayLiteral names: String...) {
    self.init(names)
  }

  /// The name of source number `index` (0-based, in the order given).
  public subscript(index: Int) -> String {
    withName(index) { String(decoding: $0, as: UTF8.self) }
  }

  /// Adds `name` unless it is already in the list.
  public mutating func append(_ name: String) {
    var name = name
    name.withUTF8 { _ = insert($0) }
  }

  /// Adds the sources of the list at `path` (an OPML file, or one source a line; `-`: standard
  /// input), read a block at a time: no `String` is made for a source. `each` sees every
  /// source's bytes as it is read (a caller's check of what was listed).
  ///
  /// Each name's bytes go to their block as they are read, and the name is inserted eight
  /// behind the reading (`Lookahead`): its slot is asked of the cache when it is read and
  /// written when it is inserted, so that the table's random reads (a table of 8 MB for a
  /// million names) overlap instead of each stalling in turn. A name listed again leaves its
  /// bytes unused in its block; when those are most of what the blocks hold, the names are
  /// copied into new blocks (`compact`), so that a list of repeats holds each name once.
  ///
  /// A regular file's arrays are sized once for the lines its size holds at the length of its
  /// first names (`reserve`): grown by doubling, a million names copied them a score of times.
  public mutating func append(
    contentsOfListAt path: String, each: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }
  ) throws(SubscriptionList.ReadError) {
    var waiting = Lookahead()
    // The bytes of names listed again, left in the blocks.
    var unused = 0
    let fileSize = path == "-" ? 0 : Self.regularFileSize(path)
    var sampled = 0
    var sampledBytes = 0
    try SubscriptionList.forEachSource(inFileAt: path) { source in
      each(source)
      if sampled < Self.sampleNames && fileSize > 0 {
        sampled += 1
        // A line's bytes: its name and its end.
        sampledBytes += source.count + 1
        if sampled == Self.sampleNames {
          reserve(Swift.min(fileSize / (sampledBytes / sampled) + 1, Self.largestReserve))
        }
      }
      let hash = Self.hash(source)
      slots.withUnsafeBufferPointer { slots in
        prefetchForWrite(slots.baseAddress! + (Int(hash) & (slots.count - 1)))
      }
      if waiting.isFull {
        unused += insertStored(waiting.takeOldest())
        // Names listed again are most of the blocks: the names read so far inserted, and
        // copied into new blocks (then the list grows from half the bytes at most, so the
        // copies cost no more than the reading).
        if isMostlyRepeats(unused) {
          while !waiting.isEmpty { _ = insertStored(waiting.takeOldest()) }
          compact()
          unused = 0
        }
      }
      waiting.add(store(source), hash: hash)
    }
    while !waiting.isEmpty { unused += insertStored(waiting.takeOldest()) }
    if isMostlyRepeats(unused) { compact() }
  }

  /// Whether `unused` bytes of repeated names are more than a block and most of the blocks:
  /// time to `compact`.
  private func isMostlyRepeats(_ unused: Int) -> Bool {
    unused > Self.blockSize && unused * 2 > blocks.count * Self.blockSize
  }

  /// Names sampled for the length of a list's lines before its arrays are sized.
  private static let sampleNames = 256

  /// The most names the arrays are sized for ahead (16 Mi: 256 MB of address space, touched
  /// only as used): a file of short first names and long comments after them, whatever its
  /// size, reserves no more, and a list longer than this grows as any other.
  private static let largestReserve = 1 << 24

  /// The size of the regular file at `path`, or 0 (a pipe, a device, none).
  private static func regularFileSize(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(status.st_size)
  }

  /// Room for `total` sources in the arrays, whose pages are not touched until used. The
  /// table still grows by doubling: sized from the estimate, a list whose later names are
  /// longer than its first (`host1` … `host999999`) took a table of twice the size it needed.
  private mutating func reserve(_ total: Int) {
    guard total > locations.count else { return }
    locations.reserveCapacity(total)
    hashes.reserveCapacity(total)
  }

  /// Names read, their bytes stored and not yet inserted, in order: a ring of their places and
  /// hashes.
  private struct Lookahead {
    static let size = 8
    private var ring = [(location: Location, hash: UInt32)](
      repeating: (Location(block: 0, offset: 0, length: 0), 0), count: size)
    private var first = 0
    private(set) var count = 0

    var isFull: Bool { count == Self.size }
    var isEmpty: Bool { count == 0 }

    mutating func add(_ location: Location, hash: UInt32) {
      ring[(first + count) % Self.size] = (location, hash)
      count += 1
    }

    mutating func takeOldest() -> (location: Location, hash: UInt32) {
      defer {
        first = (first + 1) % Self.size
        count -= 1
      }
      return ring[first]
    }
  }

  /// Inserts the name stored at `entry.location` unless it is listed already; the bytes left
  /// unused (those of a name listed again).
  private mutating func insertStored(_ entry: (location: Location, hash: UInt32)) -> Int {
    let found = withName(entry.location) { find($0, hash: entry.hash) }
    guard found.index == nil else { return Int(entry.location.length) }
    add(entry.location, hash: entry.hash, slot: found.slot)
    return 0
  }

  /// The bytes held in the blocks.
  var storedBytes: Int { blocks.reduce(0) { $0 + $1.count } }

  /// The names copied into new blocks, side by side: a list that repeats its names (a million
  /// copies of one URL) left their bytes behind, as much as the file, where each name once is
  /// enough.
  private mutating func compact() {
    let old = blocks
    blocks = []
    for index in locations.indices {
      let location = locations[index]
      locations[index] = old[Int(location.block)].withUnsafeBufferPointer { block in
        let start = Int(location.offset)
        return store(UnsafeBufferPointer(rebasing: block[start..<start + Int(location.length)]))
      }
    }
  }

  /// The sources in order.
  public func makeIterator() -> AnyIterator<String> {
    var index = 0
    return AnyIterator {
      guard index < self.count else { return nil }
      defer { index += 1 }
      return self[index]
    }
  }

  /// The number of `name`, nil when it is not in the list.
  func index(of name: String) -> Int? {
    var name = name
    return name.withUTF8 { find($0).index }
  }

  /// The number of the source whose name is `bytes`, nil when it is not in the list; `guess`
  /// is compared first (a caller going through the list in order saves the hash table's random
  /// reads).
  func index(of bytes: UnsafeBufferPointer<UInt8>, guess: Int? = nil) -> Int? {
    if let guess, guess >= 0, guess < count, has(guess, named: bytes) { return guess }
    return find(bytes).index
  }

  /// `index(of:guess:)` for a `String`.
  func index(of name: String, guess: Int?) -> Int? {
    var name = name
    return name.withUTF8 { index(of: $0, guess: guess) }
  }

  private func has(_ index: Int, named name: UnsafeBufferPointer<UInt8>) -> Bool {
    withName(index) { stored in
      stored.count == name.count
        && (name.isEmpty || memcmp(stored.baseAddress!, name.baseAddress!, name.count) == 0)
    }
  }

  /// Whether `name` is in the list.
  func contains(_ name: String) -> Bool { index(of: name) != nil }

  /// Adds `name`'s bytes unless they are there; its number either way.
  @discardableResult
  mutating func insert(_ name: UnsafeBufferPointer<UInt8>) -> (index: Int, inserted: Bool) {
    insert(name, hash: Self.hash(name))
  }

  /// `insert(_:)` of a name whose hash is known.
  @discardableResult
  private mutating func insert(_ name: UnsafeBufferPointer<UInt8>, hash: UInt32) -> (
    index: Int, inserted: Bool
  ) {
    let found = find(name, hash: hash)
    if let index = found.index { return (index, false) }
    return (add(store(name), hash: hash, slot: found.slot), true)
  }

  /// Numbers the name stored at `location`, found missing at `slot`; its number.
  @discardableResult
  private mutating func add(_ location: Location, hash: UInt32, slot: Int) -> Int {
    let index = locations.count
    locations.append(location)
    hashes.append(hash)
    slots[slot] = Self.entry(index, hash: hash, mask: slots.count - 1)
    if locations.count * 2 > slots.count { grow() }
    return index
  }

  private mutating func store(_ name: UnsafeBufferPointer<UInt8>) -> Location {
    if blocks.isEmpty || blocks[blocks.count - 1].count + name.count > Self.blockSize {
      var block: [UInt8] = []
      block.reserveCapacity(Swift.max(Self.blockSize, name.count))
      blocks.append(block)
    }
    let last = blocks.count - 1
    let offset = blocks[last].count
    blocks[last].append(contentsOf: name)
    return Location(block: UInt32(last), offset: UInt32(offset), length: UInt32(name.count))
  }

  private func withName<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    withName(locations[index], body)
  }

  private func withName<T>(
    _ location: Location, _ body: (UnsafeBufferPointer<UInt8>) -> T
  ) -> T {
    blocks[Int(location.block)].withUnsafeBufferPointer { block in
      let start = Int(location.offset)
      return body(UnsafeBufferPointer(rebasing: block[start..<start + Int(location.length)]))
    }
  }

  /// The number of `name`, or the empty slot where it would go.
  private func find(_ name: UnsafeBufferPointer<UInt8>) -> (index: Int?, slot: Int) {
    find(name, hash: Self.hash(name))
  }

  private func find(
    _ name: UnsafeBufferPointer<UInt8>, hash: UInt32
  ) -> (index: Int?, slot: Int) {
    let mask = slots.count - 1
    let numberBits = UInt32(truncatingIfNeeded: mask)
    let tag = hash & ~numberBits
    var slot = Int(hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return (nil, slot) }
      if entry & ~numberBits == tag {
        let index = Int(entry & numberBits) - 1
        if hashes[index] == hash && has(index, named: name) { return (index, slot) }
      }
      slot = (slot + 1) & mask
    }
  }

  /// The slot entry of source number `index` in a table of `mask + 1` slots: the number + 1
  /// (below `mask + 1`, as the table is at most half full) under the hash's higher bits.
  private static func entry(_ index: Int, hash: UInt32, mask: Int) -> UInt32 {
    (hash & ~UInt32(truncatingIfNeeded: mask)) | UInt32(index + 1)
  }

  private mutating func grow() {
    var table = [UInt32](repeating: 0, count: slots.count * 2)
    let mask = table.count - 1
    for index in locations.indices {
      var slot = Int(hashes[index]) & mask
      while table[slot] != 0 { slot = (slot + 1) & mask }
      table[slot] = Self.entry(index, hash: hashes[index], mask: mask)
    }
    slots = table
  }

  private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(name))
    return UInt32(truncatingIfNeeded: hasher.finalize())
  }
}
