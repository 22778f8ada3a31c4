#if canImport(Glibc)
  import Glibc
#endif

/// Converts a document from its encoding to UTF-8 with iconv, chunk by chunk, before libxml2
/// reads it. libxml2 2.9.14 converting by itself gives up on the whole pushed chunk at the
/// first invalid sequence, so one bad byte in a Shift_JIS feed lost everything when the
/// document came in one piece and only the rest when it came in small pieces (a fuzzer find).
/// Here an invalid sequence becomes U+FFFD (`repaired` makes the document not well-formed),
/// and a sequence cut by a chunk boundary waits for the next chunk. Converting first also lets
/// the byte repairs that need UTF-8 (`XMLRepairFilter`) serve UTF-16, UTF-32 and ISO-2022-JP.
final class IconvTranscoder {
  private let converter: iconv_t
  /// The start of a sequence that the last chunk cut off.
  private var pending: [UInt8] = []
  private var joined: [UInt8] = []
  private var output: [UInt8] = []
  private var scratch = [UInt8](repeating: 0, count: 1 << 16)
  /// True once a sequence could not be converted.
  private(set) var repaired = false

  private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

  /// Nil when iconv does not know `encoding`.
  init?(from encoding: String) {
    guard let converter = iconv_open("UTF-8", encoding), converter != iconv_t(bitPattern: -1)
    else { return nil }
    self.converter = converter
  }

  deinit { iconv_close(converter) }

  /// Hands `body` the UTF-8 for `input` (and what an earlier chunk left pending).
  func process(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    joined.removeAll(keepingCapacity: true)
    joined.append(contentsOf: pending)
    joined.append(contentsOf: input)
    pending.removeAll()
    output.removeAll(keepingCapacity: true)
    joined.withUnsafeMutableBytes { bytes in
      var inPointer = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
      var inLeft = bytes.count
      while inLeft > 0 {
        let status = convert(&inPointer, &inLeft)
        if status == 0 { break }
        switch status {
        case E2BIG:
          continue
        case EINVAL:
          if let start = inPointer {
            pending.append(
              contentsOf: UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: inLeft))
          }
          inLeft = 0
        default:  // EILSEQ, or anything else iconv refuses: one byte becomes U+FFFD.
          output.append(contentsOf: Self.replacement)
          repaired = true
          inPointer = inPointer.map { $0 + 1 }
          inLeft -= 1
        }
      }
    }
    output.withUnsafeBytes(body)
  }

  /// A sequence still cut off at the end of the document is invalid.
  func finish(_ body: (UnsafeRawBufferPointer) -> Void) {
    output.removeAll(keepingCapacity: true)
    if !pending.isEmpty {
      pending.removeAll()
      output.append(contentsOf: Self.replacement)
      repaired = true
    }
    output.withUnsafeBytes(body)
  }

  /// One iconv call into the scratch buffer, its output appended; 0 when all input was used,
  /// else iconv's errno.
  private func convert(_ inPointer: inout UnsafeMutablePointer<CChar>?, _ inLeft: inout Int)
    -> Int32
  {
    scratch.withUnsafeMutableBytes { scratchBytes in
      var outPointer = scratchBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
      var outLeft = scratchBytes.count
      let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
      let failure = result == -1 ? errno : 0
      output.append(contentsOf: scratchBytes[..<(scratchBytes.count - outLeft)])
      return failure
    }
  }
}
