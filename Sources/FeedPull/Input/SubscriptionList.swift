import FeedParser
import FeedPullSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The sources of an `-i` file: an OPML subscription list (every `outline` with an `xmlUrl`,
/// at any depth, in document order), or plain text with one source a line: its first field, so
/// that a `# comment` after it and newsboat's `urls` file (tags and a `"~title"` after the URL)
/// read as they are meant; blank lines and lines starting with `#` are skipped.
public enum SubscriptionList {
  /// Why a list could not be read: the file, or its OPML.
  public struct ReadError: Error, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var description: String
  }

  /// The sources listed in the file at `path` (OPML, or one a line); `-` is standard input.
  public static func read(path: String) throws(ReadError) -> [String] {
    var sources: [String] = []
    try forEachSource(inFileAt: path) { sources.append(String(decoding: $0, as: UTF8.self)) }
    return sources
  }

  /// Calls `body` with each source of the list at `path` (`-`: standard input), as UTF-8 bytes
  /// valid during the call, in order. The list is read a block at a time and never held whole,
  /// OPML (`OPMLOutlineReader`) as well as one a line (whose lines are read as bytes: no
  /// `String` for a line), so that a list of a million sources costs a block of memory. An OPML
  /// list that turns out broken throws after `body` had the sources before the break.
  public static func forEachSource(
    inFileAt path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(ReadError) {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw unreadable(path) }
    defer { if path != "-" { close(descriptor) } }
    var block = [UInt8](repeating: 0, count: 1 << 16)
    func fill() throws(ReadError) -> Int {
      while true {
        let count = block.withUnsafeMutableBytes {
          Glibc.read(descriptor, $0.baseAddress, $0.count)
        }
        if count >= 0 { return count }
        if errno != EINTR { throw unreadable(path) }
      }
    }
    var reading = Reading(name: path)
    while true {
      let count = try fill()
      if count == 0 { break }
      // As a `Result`: `withUnsafeBytes` rethrows untyped.
      try block.withUnsafeBytes { bytes in
        Result { () throws(ReadError) in
          try reading.take(UnsafeRawBufferPointer(rebasing: bytes[..<count]), body)
        }
      }.get()
    }
    try reading.finish(body)
  }

  /// The file's bytes (`-`: standard input's), or why they cannot be read (`cannot read
  /// list.txt: Permission denied`).
  public static func contents(of path: String) throws(ReadError) -> Data {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw unreadable(path) }
    defer { if path != "-" { close(descriptor) } }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR { continue }
        throw unreadable(path)
      }
      data.append(contentsOf: buffer[..<count])
    }
  }

  private static func unreadable(_ path: String) -> ReadError {
    let reason = String(cString: strerror(errno))
    return ReadError(description: "cannot read \(listName(path)): \(reason)")
  }

  /// The sources listed in `data`; `name` names it in errors.
  public static func parse(_ data: Data, name: String) throws(ReadError) -> [String] {
    var sources: [String] = []
    func add(_ source: UnsafeBufferPointer<UInt8>) {
      sources.append(String(decoding: source, as: UTF8.self))
    }
    var reading = Reading(name: name)
    try data.withUnsafeBytes { bytes in
      Result { () throws(ReadError) in try reading.take(bytes, add) }
    }.get()
    try reading.finish(add)
    return sources
  }

  /// A list's bytes as they come, in blocks: OPML or one source a line, told apart by the first
  /// byte that is not white space, in whichever block it comes (a pipe may deliver a leading
  /// blank line alone; blank blocks before it are blank lines).
  private struct Reading {
    let name: String
    private var lines = PlainListLines()
    private var opml: OPMLOutlineReader?
    private var decided = false

    init(name: String) { self.name = name }

    mutating func take(
      _ raw: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(ReadError) {
      let bytes = raw.assumingMemoryBound(to: UInt8.self)
      if !decided, bytes.contains(where: { !PlainListLines.isBlank($0) }) {
        decided = true
        if isOPML(bytes) {
          guard let reader = OPMLOutlineReader() else {
            throw ReadError(description: "cannot read \(listName(name)): no XML parser")
          }
          opml = reader
        }
      }
      if let opml {
        do throws(OPMLOutlineReader.Failure) {
          try opml.push(raw, body)
        } catch {
          throw notOPML(name, line: error.line)
        }
        return
      }
      lines.take(bytes, body)
      if let refusal = lines.refusal { throw notAList(name, refusal) }
    }

    mutating func finish(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(ReadError) {
      guard let opml else { return lines.finish(body) }
      do throws(OPMLOutlineReader.Failure) {
        try opml.finish(body)
      } catch {
        throw notOPML(name, line: error.line)
      }
    }
  }

  /// Whether a list's first bytes begin an XML document (after a BOM and white space). A
  /// UTF-16 BOM means XML too: a list one a line is read as UTF-8, and an OPML file saved as
  /// UTF-16 (as Windows tools save "Unicode") is for the XML parser to decode.
  private static func isOPML(_ bytes: some Collection<UInt8>) -> Bool {
    var rest = bytes[...]
    if rest.starts(with: [0xFF, 0xFE]) || rest.starts(with: [0xFE, 0xFF]) { return true }
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    return rest.first { !PlainListLines.isBlank($0) } == UInt8(ascii: "<")
  }

  private static func notOPML(_ name: String, line: Int) -> ReadError {
    ReadError(description: "\(listName(name)) is not a readable OPML file (line \(line))")
  }

  private static func notAList(_ name: String, _ refusal: String) -> ReadError {
    ReadError(description: "\(listName(name)) is not a list of sources: \(refusal)")
  }

  private static func listName(_ name: String) -> String {
    name == "-" ? "standard input" : name
  }
}

/// The lines of a plain list, in blocks, each line's source its first field: blank lines, `#`
/// comments and newsboat's query and filter feeds (a first field in double quotes, which names
/// no URL) are left out, as is what follows the first field (a `# comment`, newsboat's tags and
/// `"~title"`). A line cut by the end of a block is carried to the next. Read as bytes: white
/// space is ASCII's, and a URL holds none.
private struct PlainListLines {
  /// A line longer than this is no source (a URL is a few hundred bytes): the file is not a
  /// list, and reading on would hold it whole (`-i /dev/zero` grew by 300 MB a second).
  static let longestLine = 1 << 20

  private var carried: [UInt8] = []
  /// Bytes taken before the current block.
  private var offset = 0
  /// Why the bytes are not a list (a NUL byte, a line past `longestLine`), once seen: no line
  /// is handed on after it.
  private(set) var refusal: String?

  static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A || byte == 0x0B || byte == 0x0C
  }

  mutating func take(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    guard refusal == nil, let base = bytes.baseAddress else { return }
    defer { offset += bytes.count }
    // A NUL is in no text list (a binary file, a list in UTF-16 without its BOM).
    if let nul = memchr(base, 0, bytes.count) {
      let at = offset + base.distance(to: nul.assumingMemoryBound(to: UInt8.self))
      refusal = "a NUL byte at byte \(at)"
      return
    }
    // A line ends at a CR or an LF, each found by memchr (a SIMD scan). Each search starts
    // where the last one's find was passed, so that a block is scanned once for each byte
    // however its lines end (CR alone, LF alone, CRLF, or none).
    func next(_ byte: Int32, from start: Int) -> Int {
      guard let found = memchr(base + start, byte, bytes.count - start) else { return bytes.count }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
    var start = 0
    var feed = -1
    var carriage = -1
    while start < bytes.count {
      if feed < start { feed = next(0x0A, from: start) }
      if carriage < start { carriage = next(0x0D, from: start) }
      let index = min(feed, carriage)
      guard index < bytes.count else { break }
      if carried.isEmpty {
        Self.line(UnsafeBufferPointer(rebasing: bytes[start..<index]), body)
      } else {
        carried.append(contentsOf: bytes[start..<index])
        carried.withUnsafeBufferPointer { Self.line($0, body) }
        carried.removeAll(keepingCapacity: true)
      }
      start = index + 1
    }
    carried.append(contentsOf: bytes[start...])
    if carried.count > Self.longestLine {
      refusal = "a line longer than 1 MiB at byte \(offset + bytes.count - carried.count)"
      carried = []
    }
  }

  mutating func finish(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    guard refusal == nil else { return }
    carried.withUnsafeBufferPointer { Self.line($0, body) }
    carried = []
  }

  private static func line(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    var start = bytes.startIndex
    while start < bytes.endIndex, isBlank(bytes[start]) { start += 1 }
    let end = fieldEnd(bytes, from: start)
    guard start < end, bytes[start] != UInt8(ascii: "#"), bytes[start] != UInt8(ascii: "\"")
    else { return }
    body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
  }

  /// The index of the first blank at or after `start` (the end of the line's first field), or
  /// the end: eight bytes at a time past those that cannot be blank (every blank is below
  /// 0x21), so that a URL costs a few words, not a test a byte (reading a list of a million
  /// spent a quarter of its own time finding each line's end).
  private static func fieldEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return start }
    var index = start
    while index &+ 8 <= bytes.endIndex {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      if ByteWord.matchesBelow(word, 0x21) != 0 { break }
      index &+= 8
    }
    while index < bytes.endIndex, !isBlank(bytes[index]) { index += 1 }
    return index
  }
}
