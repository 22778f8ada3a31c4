/// Lists written as text in namespaced elements (`itunes:keywords`, `media:keywords`,
/// `media:tags`, `podcast:images srcset`), split on their UTF-8 bytes where they lie: each part
/// is a range of the element's text, copied once into the record.
enum ListText {
  /// The parts between `separator` bytes, each trimmed of XML white space, empty ones dropped.
  static func parts(
    of bytes: UnsafeBufferPointer<UInt8>, separatedBy separator: UInt8
  ) -> [UnsafeBufferPointer<UInt8>] {
    var separators = 0
    for byte in bytes where byte == separator { separators += 1 }
    var result: [UnsafeBufferPointer<UInt8>] = []
    result.reserveCapacity(separators + 1)
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == separator {
      var low = start
      var high = index
      while low < high && bytes[low].isXMLSpace { low += 1 }
      while high > low && bytes[high - 1].isXMLSpace { high -= 1 }
      if high > low { result.append(UnsafeBufferPointer(rebasing: bytes[low..<high])) }
      start = index + 1
    }
    return result
  }
}
