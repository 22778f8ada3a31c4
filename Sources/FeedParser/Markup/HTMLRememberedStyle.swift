#if canImport(Glibc)
  import Glibc
#endif

/// The last `style` value sanitized, as written, with what `CSSStyleSanitizer` made of it:
/// feeds repeat the same inline style from item to item (`text-align: center` on every
/// centred paragraph; the generated files one style, 201 times in 5 MB), and sanitizing one
/// costs about 7,000 instructions where comparing its bytes costs a few dozen.
/// `CSSStyleSanitizer.sanitize` depends only on the value's bytes (decoded from these) and on
/// being inside SVG, so the answer is the same. Not thread-safe.
final class HTMLRememberedStyle {
  private var raw: [UInt8] = []
  private var inSVG = false
  private var clean: [UInt8]? = nil
  private var isEmpty = true

  /// What was made of `raw` inside SVG or not, when it is the value remembered: `.some(nil)`
  /// for a style that keeps nothing; nil when not remembered.
  @inline(__always)
  func sanitized(_ raw: UnsafeBufferPointer<UInt8>, inSVG: Bool) -> [UInt8]?? {
    guard !isEmpty, inSVG == self.inSVG, raw.count == self.raw.count else { return nil }
    let same = self.raw.withUnsafeBufferPointer {
      raw.count == 0 || memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0
    }
    return same ? .some(clean) : nil
  }

  /// Remembers what was made of `raw` inside SVG or not.
  func remember(_ raw: UnsafeBufferPointer<UInt8>, inSVG: Bool, clean: [UInt8]?) {
    // Copied by `memcpy`: `Array(buffer)` would specialize the element-by-element copy that
    // `append(contentsOf:)` of a buffer then calls module-wide (see `HTMLRenderedBytes`).
    self.raw = [UInt8](unsafeUninitializedCapacity: raw.count) { buffer, count in
      if raw.count > 0 { memcpy(buffer.baseAddress!, raw.baseAddress!, raw.count) }
      count = raw.count
    }
    self.inSVG = inSVG
    self.clean = clean
    isEmpty = false
  }
}
