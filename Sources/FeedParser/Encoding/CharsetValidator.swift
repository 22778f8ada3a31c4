#if canImport(Glibc)
  import Glibc
#endif

/// Tells whether bytes are valid in an encoding, so that an HTTP `charset` and an XML
/// declaration that disagree can be settled by the bytes (CONTRACT.md, Safety) instead of
/// decoding one of them into mojibake.
enum CharsetValidator {
  /// True when `bytes` decode in `encoding` without an invalid sequence; an incomplete sequence
  /// at the very end (the prefix was cut there) counts as valid. Nil when iconv does not know
  /// the encoding.
  static func isValid(_ bytes: ArraySlice<UInt8>, in encoding: String) -> Bool? {
    if encoding == "utf-8" { return isValidUTF8(bytes) }
    let converter = iconv_open("UTF-8", encoding)
    guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
    defer { iconv_close(converter) }
    var input = Array(bytes)
    var output = [CChar](repeating: 0, count: 4096)
    return input.withUnsafeMutableBufferPointer { inputBuffer -> Bool in
      var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(
        inputBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
      var inLeft = inputBuffer.count
      while inLeft > 0 {
        let ok = output.withUnsafeMutableBufferPointer { outputBuffer -> Bool? in
          var outPointer = outputBuffer.baseAddress
          var outLeft = outputBuffer.count
          if iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) == -1 {
            switch errno {
            case E2BIG: return nil
            case EINVAL: return true
            default: return false
            }
          }
          return true
        }
        if let ok { return ok }
      }
      return true
    }
  }

  private static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let lead = bytes[index]
      let length: Int
      switch lead {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: return false
      }
      if index + length > bytes.endIndex {
        return bytes[(index + 1)...].allSatisfy { $0 & 0xC0 == 0x80 }
      }
      for next in (index + 1)..<(index + length) where bytes[next] & 0xC0 != 0x80 {
        return false
      }
      index += length
    }
    return true
  }
}
