/// Lists written as text in namespaced elements (`itunes:keywords`, `media:keywords`,
/// `media:tags`, `podcast:images srcset`), split on their UTF-8 bytes where they lie: each part
/// is a range of the element's text, copied once into the record.
enum ListText {
  /// `body` with the parts between `separator` bytes, each trimmed of XML white space, empty
  /// ones dropped. In memory of the call's own (the stack, for any list a feed writes by hand):
  /// an array of them was an allocation for every `itunes:keywords` of a podcast.
  static func withParts<Result>(
    of bytes: UnsafeBufferPointer<UInt8>, separatedBy separator: UInt8,
    _ body: (UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>) -> Result
  ) -> Result {
    var separators = 0
    for byte in bytes where byte == separator { separators &+= 1 }
    return withUnsafeTemporaryAllocation(
      of: UnsafeBufferPointer<UInt8>.self, capacity: separators &+ 1
    ) { parts in
      var count = 0
      var start = 0
      for index in 0...bytes.count where index == bytes.count || bytes[index] == separator {
        var low = start
        var high = index
        while low < high && bytes[low].isXMLSpace { low += 1 }
        while high > low && bytes[high - 1].isXMLSpace { high -= 1 }
        if high > low {
          parts.initializeElement(at: count, to: UnsafeBufferPointer(rebasing: bytes[low..<high]))
          count &+= 1
        }
        start = index + 1
      }
      return body(UnsafeBufferPointer(rebasing: parts[..<count]))
    }
  }
}
