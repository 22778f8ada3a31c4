/// One field's value in a `RecordStorage`: sixteen bytes that say what it is and hold it, or
/// say where it is. Texts are ranges of the storage's bytes; objects and lists are slot indices
/// of the same storage, so a record is one buffer of bytes and one of slots, however deep.
@frozen
public struct RecordSlot: Sendable {
  /// What a slot holds.
  public enum Kind: UInt8, Sendable {
    /// Nothing: the field was not given.
    case empty
    /// UTF-8 text, at `textStart` in the bytes, `textCount` long.
    case text
    /// An integer (`word` as `Int64`).
    case integer
    /// A number that may have a fraction (`word` as a `Double`'s bits).
    case number
    /// True or false (`flag`).
    case flag
    /// A date read as seconds since 1970 (`word` as `Int64`).
    case instant
    /// A date that could not be read, kept as its text (like `.text`).
    case rawDate
    /// An object: the block of `count` slots at `word`.
    case object
    /// A list: its first entry at `word`'s low half, its last at the high half, `count` entries.
    case list
    /// A list entry's header: the next entry at `word` (0 for none), then `count` slots of value.
    case entry
    /// A value the slots do not describe (`RecordStorage.boxes[word]`).
    case box
  }

  /// The payload: a text's start, a number's bits, a block's or an entry's index.
  @usableFromInline var word: UInt64
  /// A text's length (low 32 bits), an object's or an entry's slot count, a list's length.
  @usableFromInline var count: UInt32
  /// A text's length above 4 GiB.
  @usableFromInline var countHigh: UInt16
  /// What the slot holds.
  public var kind: Kind
  /// A flag's value.
  @usableFromInline var flag: Bool

  /// An empty slot.
  @inlinable
  public init() {
    word = 0
    count = 0
    countHigh = 0
    kind = .empty
    flag = false
  }

  @inlinable
  init(kind: Kind, word: UInt64, count: UInt32 = 0, flag: Bool = false) {
    self.word = word
    self.count = count
    countHigh = 0
    self.kind = kind
    self.flag = flag
  }

  /// Text (or a raw date) of `count` bytes at `start`.
  @inlinable
  init(kind: Kind, start: Int, count: Int) {
    word = UInt64(truncatingIfNeeded: start)
    self.count = UInt32(truncatingIfNeeded: count)
    countHigh = UInt16(truncatingIfNeeded: count >> 32)
    self.kind = kind
    flag = false
  }

  /// An integer.
  @inlinable
  public init(integer: Int64) { self.init(kind: .integer, word: UInt64(bitPattern: integer)) }

  /// A number.
  @inlinable
  public init(number: Double) { self.init(kind: .number, word: number.bitPattern) }

  /// A flag.
  @inlinable
  public init(flag: Bool) { self.init(kind: .flag, word: 0, flag: flag) }

  /// A date read as seconds since 1970.
  @inlinable
  public init(instant: Int64) { self.init(kind: .instant, word: UInt64(bitPattern: instant)) }

  /// An object's block.
  @inlinable
  init(object block: Int, count: Int) {
    self.init(kind: .object, word: UInt64(block), count: UInt32(count))
  }

  /// A boxed value.
  @inlinable
  init(box index: Int) { self.init(kind: .box, word: UInt64(index)) }

  /// True for `.text` and `.rawDate`.
  @inlinable
  public var holdsText: Bool { kind == .text || kind == .rawDate }

  @inlinable
  var textStart: Int {
    get { Int(truncatingIfNeeded: word) }
    set { word = UInt64(truncatingIfNeeded: newValue) }
  }

  @inlinable
  var textCount: Int { Int(count) | Int(countHigh) << 32 }

  /// The integer of an `.integer` or `.instant` slot.
  @inlinable
  public var integer: Int64 { Int64(bitPattern: word) }

  /// The number of a `.number` slot.
  @inlinable
  public var number: Double { Double(bitPattern: word) }

  /// The value of a `.flag` slot.
  @inlinable
  public var isTrue: Bool { flag }

  /// An object's first slot.
  @inlinable
  public var block: Int { Int(truncatingIfNeeded: word) }

  /// A list's first entry (0 when empty).
  @inlinable
  public var firstEntry: Int { Int(truncatingIfNeeded: word & 0xFFFF_FFFF) }

  /// A list's last entry (0 when empty).
  @inlinable
  var lastEntry: Int { Int(truncatingIfNeeded: word >> 32) }

  /// An entry's successor (0 at the end).
  @inlinable
  public var nextEntry: Int { Int(truncatingIfNeeded: word) }

  @inlinable
  var boxIndex: Int { Int(truncatingIfNeeded: word) }
}
