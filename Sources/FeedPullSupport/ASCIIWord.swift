/// ASCII words compared on UTF-8 bytes without regard to case, with no lowered copy made: a
/// podcast's flags on every episode, a source's scheme and a response's field names on every
/// pull. Public and `@inlinable` for the same reason as `ByteWord`; not API.
public enum ASCIIWord {
  /// Whether `bytes` are `word` (lower-case ASCII), A–Z compared as a–z.
  @inlinable
  public static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ word: StaticString)
    -> Bool
  {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    var index = 0
    for byte in bytes {
      let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
      if lowered != word.utf8Start[index] { return false }
      index += 1
    }
    return true
  }
}
