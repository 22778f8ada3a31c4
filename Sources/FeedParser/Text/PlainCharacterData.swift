#if canImport(Glibc)
  import Glibc
#endif

/// Character data (XML 1.0 §2.4) whose meaning needs no parser state: no CR (libxml2
/// normalizes line ends in character data), no `]]>` (an error there), and no references but
/// the five predefined entities and character references to XML characters. libxml2 reading
/// such a run in element content hands the builder exactly `decode`'s text, so
/// `StreamingFeedParser` can hand it over itself.
enum PlainCharacterData {
  /// True when `bytes` is such a run.
  static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress, memchr(base, 0x0D, bytes.count) == nil else {
      return false
    }
    var index = 0
    while index < bytes.count,
      let bracket = memchr(base + index, Int32(UInt8(ascii: "]")), bytes.count - index)
    {
      index = UnsafeRawPointer(bracket) - base + 1
      if index + 1 < bytes.count && bytes[index] == UInt8(ascii: "]")
        && bytes[index + 1] == UInt8(ascii: ">")
      {
        return false
      }
    }
    index = 0
    while index < bytes.count,
      let ampersand = memchr(base + index, Int32(UInt8(ascii: "&")), bytes.count - index)
    {
      index = UnsafeRawPointer(ampersand) - base
      guard let end = referenceEnd(bytes, from: index), value(ofReference: bytes, index, end) != nil
      else { return false }
      index = end
    }
    return true
  }

  /// Appends the text of a plain run (see `isPlain`) to `output`: the runs between references
  /// copied whole, each reference's character encoded in place (a `String` made for each
  /// reference was most of the cost of a title with an `&amp;`).
  static func decode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
    guard let base = bytes.baseAddress else { return }
    let typed = base.assumingMemoryBound(to: UInt8.self)
    output.reserveCapacity(output.count + bytes.count)
    var start = 0
    var index = 0
    while index < bytes.count,
      let ampersand = memchr(base + index, Int32(UInt8(ascii: "&")), bytes.count - index)
    {
      index = UnsafeRawPointer(ampersand) - base
      guard let end = referenceEnd(bytes, from: index),
        let value = value(ofReference: bytes, index, end), Unicode.Scalar(value) != nil
      else {
        index += 1
        continue
      }
      output.append(contentsOf: UnsafeBufferPointer(start: typed + start, count: index - start))
      appendUTF8(value, to: &output)
      index = end
      start = end
    }
    output.append(contentsOf: UnsafeBufferPointer(start: typed + start, count: bytes.count - start))
  }

  /// Hands `body` the text of a plain run: its own bytes when it holds no reference, else its
  /// decoding, written into `scratch` (kept by the caller from run to run).
  static func withText(
    of bytes: UnsafeRawBufferPointer, scratch: inout [UInt8],
    _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    guard let base = bytes.baseAddress else {
      return body(UnsafeBufferPointer(start: nil, count: 0))
    }
    if memchr(base, Int32(UInt8(ascii: "&")), bytes.count) == nil {
      body(bytes.assumingMemoryBound(to: UInt8.self))
    } else {
      scratch.removeAll(keepingCapacity: true)
      decode(bytes, into: &scratch)
      scratch.withUnsafeBufferPointer(body)
    }
  }

  /// `value`, a Unicode scalar, as UTF-8.
  @inline(__always)
  private static func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
    switch value {
    case 0..<0x80:
      output.append(UInt8(value))
    case 0x80..<0x800:
      output.append(0xC0 | UInt8(value >> 6))
      output.append(0x80 | UInt8(value & 0x3F))
    case 0x800..<0x1_0000:
      output.append(0xE0 | UInt8(value >> 12))
      output.append(0x80 | UInt8((value >> 6) & 0x3F))
      output.append(0x80 | UInt8(value & 0x3F))
    default:
      output.append(0xF0 | UInt8(value >> 18))
      output.append(0x80 | UInt8((value >> 12) & 0x3F))
      output.append(0x80 | UInt8((value >> 6) & 0x3F))
      output.append(0x80 | UInt8(value & 0x3F))
    }
  }

  /// The index after the `;` of the reference at `start`, if it is complete.
  private static func referenceEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    XMLReferenceSyntax.completeEnd(bytes, from: start, longestName: 8)
  }

  /// The character a reference stands for when no DTD is needed to read it; nil for any other.
  private static func value(ofReference bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int)
    -> UInt32?
  {
    XMLReferenceSyntax.character(
      ofBody: UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)]))
  }
}
