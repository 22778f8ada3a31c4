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
}
