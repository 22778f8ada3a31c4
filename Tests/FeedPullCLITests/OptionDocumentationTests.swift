import Foundation
import TestSupport
import Testing

@testable import FeedPullCLI

/// The help and docs/format.md say what the option table says.
@Suite struct OptionDocumentationTests {
  @Test func theFormatPagesOptionTableIsTheOneTheParserReads() throws {
    let url = RepositoryPaths.root.appendingPathComponent("docs/format.md")
    let page = try String(contentsOf: url, encoding: .utf8)
    let start = try #require(page.range(of: OptionDocumentation.startMarker + "\n"))
    let end = try #require(
      page.range(of: OptionDocumentation.endMarker, range: start.upperBound..<page.endIndex))
    let generated = OptionDocumentation.markdownTable()
    if GoldenFixtures.regenerating {
      try page.replacingCharacters(in: start.upperBound..<end.lowerBound, with: generated)
        .write(to: url, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      String(page[start.upperBound..<end.lowerBound]) == generated,
      "docs/format.md: FEEDPULL_REGENERATE_GOLDEN=1 swift test --filter OptionDocumentationTests")
  }

  @Test(arguments: [Subcommand.pull, .watch, .stateList])
  func eachSubcommandsHelpFitsOneScreenAndListsItsOptionsOnce(_ command: Subcommand) {
    let help = HelpText.render(for: command)
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count <= 50, "\(command.rawValue): \(lines.count) lines")
    for line in lines {
      #expect(line.count <= 80, "\(line)")
    }
    let family: Set<Subcommand> = command.isState ? OptionTable.state : [command]
    for row in OptionTable.rows {
      let listed = lines.filter { line in
        let trimmed = line.drop { $0 == " " }
        return trimmed == row.synopsis || trimmed.hasPrefix(row.synopsis + "  ")
      }
      let expected = row.commands.isDisjoint(with: family) ? 0 : 1
      #expect(listed.count == expected, "\(row.long) in \(command.rawValue)")
      if expected == 1, let defaultText = row.defaultText {
        #expect(help.contains("[\(defaultText)]"), "\(row.long)'s default")
      }
    }
  }
}
