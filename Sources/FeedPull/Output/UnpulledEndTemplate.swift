import FeedPullSupport

/// The JSON of an `end` record's fields that do not vary between ends not pulled (`"type":"end"`,
/// `"ok":true`, the zero counts), made once by the writer of every end and kept as the bytes
/// before and after the source's quoted value. Both are never freed: read for every such end,
/// they are plain pointers, with no reference to count.
struct UnpulledEndTemplate: @unchecked Sendable {
  /// `"type":"end","source":`, or whatever the writer puts before the source's value.
  let beforeSource: UnsafeBufferPointer<UInt8>
  /// What the writer puts after it (`,"ok":true,…`), ending where the added fields begin.
  let afterSource: UnsafeBufferPointer<UInt8>

  /// The template of what `write` writes for a source: `write` is called once, with a source
  /// whose quoted value appears nowhere else in what it writes.
  init(_ write: (String, inout JSONLineBuffer) -> Void) {
    let marker = "unpulled-end-template-source"
    var buffer = JSONLineBuffer()
    write(marker, &buffer)
    let bytes = buffer.bytes.array
    let quoted = Array("\"\(marker)\"".utf8)
    guard let start = ByteSearch.firstStart(of: quoted, in: bytes[...]),
      ByteSearch.firstStart(of: quoted, in: bytes[(start + 1)...]) == nil
    else { preconditionFailure("the source is written once, as it is given") }
    beforeSource = Self.kept(bytes[..<start])
    afterSource = Self.kept(bytes[(start + quoted.count)...])
  }

  private static func kept(_ bytes: ArraySlice<UInt8>) -> UnsafeBufferPointer<UInt8> {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    _ = copy.initialize(from: bytes)
    return UnsafeBufferPointer(start: copy.baseAddress, count: bytes.count)
  }
}
