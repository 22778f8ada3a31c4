import Foundation
import TestSupport
import Testing

@testable import FeedPullCLI

/// `feedpull.1` is committed (so that `man ./feedpull.1` and the install instructions work from
/// a clean clone, without a build) and stays what the option table gives; `man` renders it.
@Suite struct ManPageTests {
  static let path = RepositoryPaths.root.appendingPathComponent("feedpull.1")

  @Test func theCommittedManPageIsTheOneTheOptionTableGives() throws {
    let generated = ManPage.render()
    if GoldenFixtures.regenerating {
      try generated.write(to: Self.path, atomically: true, encoding: .utf8)
      return
    }
    let committed = try String(contentsOf: Self.path, encoding: .utf8)
    #expect(
      committed == generated,
      "feedpull.1: FEEDPULL_REGENERATE_GOLDEN=1 swift test --filter ManPageTests")
  }

  @Test func everyOptionIsInTheManPage() {
    let page = ManPage.render()
    for row in OptionTable.rows {
      #expect(page.contains("\\fB" + ManPage.escaped(row.long) + "\\fR"), "\(row.long)")
    }
  }

  @Test func manRendersItWithoutAWarning() throws {
    let rendered = try FeedpullProcess.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      ["MANWIDTH=80", "MANPAGER=cat", "PAGER=cat", "LC_ALL=C.UTF-8", "man", "./feedpull.1"],
      currentDirectory: RepositoryPaths.root)
    #expect(rendered.status == 0, "\(rendered.stderr)")
    #expect(rendered.stderr.isEmpty, "\(rendered.stderr)")
    let text = rendered.stdout.replacingOccurrences(of: "\u{2010}", with: "-")
      .replacingOccurrences(of: "\u{2212}", with: "-")
    for name in ["FEEDPULL(1)", "SYNOPSIS", "--timeout DURATION", "--records LIST", "EXIT STATUS"] {
      #expect(text.contains(name), "\(name) not in the rendered page")
    }
    let warnings = try FeedpullProcess.run(
      executable: URL(fileURLWithPath: "/usr/bin/groff"),
      ["-man", "-ww", "-z", "-Tutf8", Self.path.path])
    #expect(warnings.status == 0)
    #expect(warnings.stderr.isEmpty, "\(warnings.stderr)")
  }
}
