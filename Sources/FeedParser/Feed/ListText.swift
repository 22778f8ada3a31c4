/// Lists written as text in namespaced elements (`itunes:keywords`, `media:keywords`,
/// `media:tags`, `podcast:images srcset`), split on their UTF-8 bytes: `String.split` on
/// characters cost about 9,000 instructions a list, once for every episode of a podcast feed.
enum ListText {
  /// The parts between `separator` bytes, each trimmed of XML white space, empty ones dropped.
  static func parts(of text: String, separatedBy separator: UInt8) -> [String] {
    var result: [String] = []
    // In place (`withUTF8` needs a copy), and the array sized once (growing it one part at a
    // time reallocated it twice for three keywords).
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
      var separators = 0
      for byte in bytes where byte == separator { separators += 1 }
      result.reserveCapacity(separators + 1)
      var start = 0
      for index in 0...bytes.count where index == bytes.count || bytes[index] == separator {
        var low = start
        var high = index
        while low < high && bytes[low].isXMLSpace { low += 1 }
        while high > low && bytes[high - 1].isXMLSpace { high -= 1 }
        if high > low {
          result.append(
            String(decoding: UnsafeBufferPointer(rebasing: bytes[low..<high]), as: UTF8.self))
        }
        start = index + 1
      }
    }
    if done == nil {
      var contiguous = text
      contiguous.makeContiguousUTF8()
      return parts(of: contiguous, separatedBy: separator)
    }
    return result
  }

  /// The comma-separated parts of `text`, trimmed, empty ones dropped.
  static func commaSeparated(_ text: String) -> [String] {
    parts(of: text, separatedBy: UInt8(ascii: ","))
  }
}
