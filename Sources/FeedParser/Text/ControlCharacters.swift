import FeedPullSupport

/// C0 control characters other than tab, LF and CR, which no text field keeps in any format:
/// XML 1.0 forbids them (§2.2, and the repair filter drops them before libxml2), and a JSON
/// Feed may carry them as `\u001b` escapes, which printed as they are clear a screen or set a
/// terminal's title. Removing them where a JSON Feed's strings are read keeps every format's
/// values alike.
enum ControlCharacters {
  /// True for a byte that is a C0 control other than tab, LF and CR.
  @inline(__always)
  static func isRemoved(_ byte: UInt8) -> Bool {
    byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
  }

  /// Calls `body` with `bytes` as they are when they hold no such control (the usual case,
  /// checked eight bytes at a time), else with a copy in `scratch` without them.
  static func withoutControls<Result>(
    _ bytes: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8],
    _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    guard let first = firstControl(bytes) else { return body(bytes) }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
    for byte in bytes[first...] where !isRemoved(byte) { scratch.append(byte) }
    return scratch.withUnsafeBufferPointer(body)
  }

  /// The index of the first control to remove, if any.
  static func firstControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var index = 0
    while index &+ 8 <= bytes.count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      if ByteWord.matchesBelow(word, 0x20) == 0 {
        index &+= 8
        continue
      }
      for offset in index..<index &+ 8 where isRemoved(base[offset]) { return offset }
      index &+= 8
    }
    while index < bytes.count {
      if isRemoved(base[index]) { return index }
      index &+= 1
    }
    return nil
  }
}
