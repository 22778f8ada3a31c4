/// A streaming byte filter in front of libxml2 that keeps real feeds out of libxml2's recovery
/// mode (which silently drops every entity reference after the first error). STUB: the real
/// implementation replaces this file.
struct XMLRepairFilter {
  /// True once the filter changed a byte: the document was not well-formed as sent.
  private(set) var repaired = false

  init() {}

  /// Appends the repaired form of `input` to `output`; a partial construct at the end of
  /// `input` (`&nbs`) is held back until the next call.
  mutating func process(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
    output.append(contentsOf: input)
  }

  /// Appends whatever was held back.
  mutating func finish(into output: inout [UInt8]) {}
}
