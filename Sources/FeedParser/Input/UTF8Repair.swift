import FeedPullSupport

/// Replaces every invalid UTF-8 sequence with U+FFFD before libxml2 reads the bytes. libxml2
/// 2.9.14 meets a bad byte by switching the rest of the document to ISO-8859-1 at a point that
/// depends on how the bytes were chunked; replacing them here makes the text the same however
/// the document arrives, and never silent mojibake (`repaired` makes it not well-formed).
/// Sequences are judged as RFC 3629 section 4 defines them; one cut by a chunk boundary is held
/// back until the next chunk. U+FFFE and U+FFFF, valid UTF-8 but no XML characters (XML 1.0
/// §2.2), count as invalid too: libxml2 stops at them, and CDATA content that bypasses libxml2
/// (`StreamingFeedParser.route`) must read the same as content that does not.
///
/// For a document that names no encoding (`fallsBackToWindows1252`), the first invalid
/// sequence means the document is not UTF-8 at all: from there on its bytes are read as
/// windows-1252, as feedparser falls back to it (the text most likely meant, not U+FFFD), and
/// it is not well-formed either. What went before was valid UTF-8 and stays as read, so the
/// text is the same however the document is chunked.
struct UTF8Repair {
  /// True once a byte was replaced.
  private(set) var repaired = false
  /// Read the rest as windows-1252 at the first invalid sequence, instead of U+FFFD.
  var fallsBackToWindows1252 = false
  /// True once the rest of the document is read as windows-1252.
  private(set) var isWindows1252 = false
  /// The start of a sequence that the last chunk cut off (at most three bytes).
  private var pending: [UInt8] = []
  private var joined: [UInt8] = []

  private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

  /// Hands `body` the repaired bytes: the input itself when it is valid and whole, which is the
  /// common case and costs no copy.
  mutating func process(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    if isWindows1252 { return Self.windows1252(input, body) }
    var rest = input
    // A sequence cut by the last chunk is finished from this chunk's first bytes alone, so
    // that the rest still goes through without a copy (CJK text is cut mid-character at most
    // chunk boundaries).
    while !pending.isEmpty && !rest.isEmpty {
      let take = min(max(1, Self.sequenceLength(lead: pending[0]) - pending.count), rest.count)
      joined.removeAll(keepingCapacity: true)
      joined.append(contentsOf: pending)
      joined.append(contentsOf: rest[..<take])
      pending.removeAll()
      let piece = joined
      piece.withUnsafeBytes { repairing($0, body) }
      rest = UnsafeRawBufferPointer(rebasing: rest[take...])
      if isWindows1252 { return Self.windows1252(rest, body) }
    }
    guard !rest.isEmpty else { return }
    let scan = Self.scan(rest)
    if scan.invalidAt == nil && scan.validEnd == rest.count {
      body(rest)
      return
    }
    repairing(rest, body)
  }

  /// The slow path, for bytes with an invalid sequence or a cut-off end: copies the valid runs
  /// and U+FFFD for each invalid sequence, and holds back a cut-off sequence in `pending`.
  private mutating func repairing(
    _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 8)
    var start = 0
    while start < bytes.count {
      let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
      let scan = Self.scan(rest)
      output.append(contentsOf: rest[..<scan.validEnd])
      if let invalid = scan.invalidAt {
        repaired = true
        if fallsBackToWindows1252 {
          isWindows1252 = true
          if !output.isEmpty { output.withUnsafeBytes(body) }
          return Self.windows1252(UnsafeRawBufferPointer(rebasing: rest[invalid...]), body)
        }
        output.append(contentsOf: Self.replacement)
        start += invalid + scan.invalidLength
      } else {
        pending.append(contentsOf: rest[scan.validEnd...])
        break
      }
    }
    if !output.isEmpty { output.withUnsafeBytes(body) }
  }

  /// The length a sequence with this (valid) lead byte has.
  private static func sequenceLength(lead: UInt8) -> Int {
    switch lead {
    case 0xC2...0xDF: 2
    case 0xE0...0xEF: 3
    case 0xF0...0xF4: 4
    default: 1
    }
  }

  /// A sequence still cut off at the end of the document is invalid.
  mutating func finish(_ body: (UnsafeRawBufferPointer) -> Void) {
    guard !pending.isEmpty else { return }
    let cut = pending
    pending.removeAll()
    repaired = true
    if fallsBackToWindows1252 {
      isWindows1252 = true
      return cut.withUnsafeBytes { Self.windows1252($0, body) }
    }
    Self.replacement.withUnsafeBytes(body)
  }

  /// `bytes` read as windows-1252, in UTF-8 (its five unassigned bytes as U+FFFD).
  private static func windows1252(
    _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    guard !bytes.isEmpty else { return }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + bytes.count / 2)
    for byte in bytes {
      switch byte {
      case 0..<0x80:
        output.append(byte)
      case 0x80..<0xA0:
        // Some are below U+0800 (Œ, Š, ˆ): two bytes, not an overlong three.
        let value = windows1252High[Int(byte - 0x80)]
        if value < 0x800 {
          output.append(UInt8(0xC0 | value >> 6))
        } else {
          output.append(UInt8(0xE0 | value >> 12))
          output.append(UInt8(0x80 | value >> 6 & 0x3F))
        }
        output.append(UInt8(0x80 | value & 0x3F))
      default:
        output.append(0xC0 | byte >> 6)
        output.append(0x80 | byte & 0x3F)
      }
    }
    output.withUnsafeBytes(body)
  }

  /// Windows-1252's characters for 0x80–0x9F, U+FFFD for the five it leaves unassigned.
  private static let windows1252High: [UInt32] = [
    0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD, 0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
  ]

  /// True when `bytes` are well-formed UTF-8 (RFC 3629 section 4), a sequence cut off at the
  /// very end included. U+FFFE and U+FFFF count as valid here: the question is which encoding
  /// the bytes are in, not whether they are XML characters (the repair still replaces them).
  static func isValidEncoding(_ bytes: UnsafeRawBufferPointer) -> Bool {
    !wellFormedPrefix(bytes).illFormed
  }

  /// How far `bytes` are well-formed UTF-8: the end of their whole sequences (U+FFFE and
  /// U+FFFF included), and whether an ill-formed sequence starts there; if not, what follows
  /// the end is the start of a sequence that the end of `bytes` cut off.
  static func wellFormedPrefix(_ bytes: UnsafeRawBufferPointer) -> (end: Int, illFormed: Bool) {
    var start = 0
    while start < bytes.count {
      let scan = scan(UnsafeRawBufferPointer(rebasing: bytes[start...]))
      guard let invalid = scan.invalidAt else { return (start + scan.validEnd, false) }
      guard scan.isNoncharacter else { return (start + invalid, true) }
      start += invalid + scan.invalidLength
    }
    return (bytes.count, false)
  }

  private struct Scan {
    /// Bytes from the start that are whole valid sequences.
    var validEnd: Int
    /// Where an invalid sequence starts (== validEnd), and how many bytes it spans.
    var invalidAt: Int?
    var invalidLength = 1
    /// The invalid sequence is U+FFFE or U+FFFF: well-formed UTF-8, but no XML character.
    var isNoncharacter = false
  }

  private static func scan(_ bytes: UnsafeRawBufferPointer) -> Scan {
    let count = bytes.count
    var index = 0
    while index < count {
      // ASCII eight bytes at a time (most feed markup is ASCII), then straight to the first
      // byte that is not.
      if index + 8 <= count {
        let high = ByteWord.nonASCII(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        if high == 0 {
          index += 8
          continue
        }
        index += ByteWord.firstMatch(high)
      }
      if bytes[index] < 0x80 {
        index += 1
        continue
      }
      // Japanese and Chinese text is runs of three-byte sequences: two at a time from one load
      // (lead, continuation, continuation, twice), for leads other than E0 and ED, whose second
      // byte has a narrower range and goes the long way below.
      while index + 8 <= count {
        let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        guard word & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0 else { break }
        let first = UInt8(truncatingIfNeeded: word)
        let second = UInt8(truncatingIfNeeded: word &>> 24)
        guard first != 0xE0, first != 0xED, first != 0xEF, second != 0xE0, second != 0xED,
          second != 0xEF
        else { break }
        index += 6
      }
      guard index < count else { break }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // One three-byte sequence whose lead (E1–EC, EE–EF) allows any continuation bytes, but
      // for the two noncharacters.
      if lead >= 0xE1, lead != 0xED, lead <= 0xEF, index + 2 < count,
        bytes[index + 1] & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80,
        lead != 0xEF || bytes[index + 1] != 0xBF || bytes[index + 2] < 0xBE
      {
        index += 3
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, low) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, high) = (3, 0x9F)
      case 0xF0: (length, low) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, high) = (4, 0x8F)
      default: return Scan(validEnd: index, invalidAt: index)
      }
      for offset in 1..<length {
        guard index + offset < count else { return Scan(validEnd: index) }
        let byte = bytes[index + offset]
        let (min, max) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
        if byte < min || byte > max {
          return Scan(validEnd: index, invalidAt: index, invalidLength: offset)
        }
      }
      if lead == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE {
        return Scan(validEnd: index, invalidAt: index, invalidLength: 3, isNoncharacter: true)
      }
      index += length
    }
    return Scan(validEnd: count)
  }
}
