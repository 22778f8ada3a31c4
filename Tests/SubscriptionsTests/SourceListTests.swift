import Foundation
import Testing

@testable import Subscriptions

/// The list's table through its growth: every name found at its number, a name given again not
/// added, a name never given not found (a slot keeps part of its name's hash beside the number).
@Suite struct SourceListTests {
  @Test func namesAreFoundByTheirNumbersAcrossGrowth() {
    let names = (0..<100_000).map { "https://host\($0 % 5000).example/feed/\($0).xml" }
    var list = SourceList()
    for name in names { list.append(name) }
    for name in names.prefix(1000) { list.append(name) }
    #expect(list.count == names.count)
    for (number, name) in names.enumerated() where number % 7 == 0 || number < 2000 {
      #expect(list.index(of: name) == number)
      #expect(list[number] == name)
    }
    #expect(list.index(of: "https://host1.example/feed/100000.xml") == nil)
    #expect(list.index(of: "") == nil)
    #expect(!list.contains("https://host1.example/feed/1.xml "))
  }

  /// A temporary list file of `lines`, one a line; the caller removes it.
  static func listFile(_ lines: [String]) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-source-list-\(UUID().uuidString).txt").path
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A list file read into the table: names stored as they are read and inserted eight behind,
  /// the arrays sized from the first names' length. Names listed again (right after, within the
  /// eight, and far apart) keep their first number; comments and blank lines are not names;
  /// the first names are the longest (the arrays' estimate falls short, and they grow past it).
  @Test func aListFileIsReadInOrderEachNameOnce() throws {
    var lines: [String] = ["# subscriptions", ""]
    var expected: [String] = []
    for number in 0..<20_000 {
      let name =
        "https://h\(number % 300).example/\(String(repeating: "x", count: (19_999 - number) / 1000))/\(number)"
      lines.append(number % 3 == 0 ? name + "\r" : name)
      expected.append(name)
      if number % 97 == 0 { lines.append(name) }
      if number % 89 == 0, number >= 5 { lines.append(expected[number - 5] + " # again") }
      if number % 1009 == 0 { lines.append(expected[number / 2]) }
    }
    let path = try Self.listFile(lines)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var list = SourceList()
    list.append("https://first.example/feed")
    var seen = 0
    try list.append(contentsOfListAt: path) { _ in seen += 1 }
    #expect(seen == lines.count - 2)
    #expect(list.count == expected.count + 1)
    #expect(list[0] == "https://first.example/feed")
    for (number, name) in expected.enumerated() {
      #expect(list.index(of: name) == number + 1)
      #expect(list[number + 1] == name)
    }
    #expect(list.index(of: expected[3] + "\r") == nil)
    #expect(!list.contains("# subscriptions"))
  }

  /// A list that repeats its names keeps its blocks near the size of its names: a copy of a
  /// name listed again is stored as it is read (before it is known to be one), and the blocks
  /// are compacted whenever such copies are more than a block and most of them.
  @Test func aListOfRepeatsKeepsItsBlocksNearItsNames() throws {
    let names = (0..<10).map { "https://repeat\($0).example/feed.xml" }
    let lines = (0..<100_000).map { names[$0 % names.count] } + ["https://last.example/feed.xml"]
    let path = try Self.listFile(lines)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var list = SourceList()
    try list.append(contentsOfListAt: path)
    #expect(list.count == 11)
    for (number, name) in (names + ["https://last.example/feed.xml"]).enumerated() {
      #expect(list.index(of: name) == number)
      #expect(list[number] == name)
    }
    // Without the copies' compaction, 3.4 MB; with it, at most a block beyond the names.
    let distinct = (names + ["https://last.example/feed.xml"]).reduce(0) { $0 + $1.utf8.count }
    #expect(list.storedBytes <= distinct + (1 << 20))
  }
}
