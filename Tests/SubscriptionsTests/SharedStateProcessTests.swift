import FeedPullSupport
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// What a state file shared by processes promises.
enum SharedState {
  /// Waits until the last lease in the state file at `path` has run out (leases are on this
  /// machine's clock, in milliseconds): the time a dead holder's sources take to come back.
  static func waitForLeasesToExpire(_ path: String) throws {
    let connection = try SQLiteConnection(path: path, readOnly: true, busyMilliseconds: 5000)
    var latest: Int64 = 0
    try connection.run("SELECT coalesce(max(lease_until), 0) FROM claims") { row in
      latest = row.integer(0)
    }
    let now = Date().timeIntervalSince1970 * 1000
    Thread.sleep(forTimeInterval: max(0, (Double(latest) - now) / 1000) + 0.1)
  }

  static func mode(_ path: String) -> mode_t {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
  }

  static func directory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }
}

/// Real processes on one SQLite file and the loopback server: overlapping runs, a watch beside
/// a one-shot run, what the file holds after a run, who may read it, the commands that must not
/// create a state, and the README's cron line on a fresh home.
@Suite struct SharedStateProcessTests {
  /// `count` feeds of two items each, each answered after `delay` seconds.
  static func farm(_ count: Int, delay: Double) throws -> (LoopbackHTTPServer, [String]) {
    let server = try LoopbackHTTPServer(routes: [:]) { request in
      guard request.target.hasPrefix("/f") else { return nil }
      let name = String(request.target.dropFirst())
      var script = HTTPScript.ok(subscribedFeed(["\(name)-0", "\(name)-1"]))
      if delay > 0 { script.steps.insert(.wait(delay), at: 0) }
      return script
    }
    return (server, (0..<count).map { server.url("/f\($0)") })
  }

  @Test func twoOverlappingRunsNeverDeliverAnItemTwice() async throws {
    try await onItsOwnThread {
      let (server, sources) = try Self.farm(24, delay: 0.3)
      let state = StateRun()
      defer { state.remove() }
      // As the README's cron line runs it: `--due`, every ten minutes, one run still going.
      let arguments = [
        FeedpullProcess.binary.path, "-f", "jsonl", "--state", state.statePath, "--due", "-j", "4",
        "--per-host", "8", "--host-delay", "0",
      ]
      let first = try RunningFeedpull(
        arguments + sources, executable: URL(fileURLWithPath: "/usr/bin/env"))
      // The second starts while the first holds leases on the sources it is pulling.
      #expect(server.requestsReceived.wait(for: 1, timeout: 60))
      let second = try RunningFeedpull(
        arguments + sources, executable: URL(fileURLWithPath: "/usr/bin/env"))
      let results = [first.finish(deadline: 120), second.finish(deadline: 120)]
      for result in results { #expect(result.status == 0, "\(result.stderr)") }
      let items = results.flatMap { $0.records("item") }.compactMap { $0["title"] as? String }
      #expect(items.count == Set(items).count, "an item delivered twice")
      #expect(Set(items) == Set(sources.indices.flatMap { ["f\($0)-0", "f\($0)-1"] }))
      let inProgress = results.flatMap { $0.records("end") }.filter {
        $0["skipped"] as? String == "in_progress"
      }
      #expect(!inProgress.isEmpty, "the runs did not overlap: the test did not test leases")
      #expect(inProgress.allSatisfy { $0["ok"] as? Bool == true })
      // Each source requested once, by one run or the other.
      var counts: [String: Int] = [:]
      for request in server.requests { counts[request.target, default: 0] += 1 }
      #expect(counts.count == sources.count)
      #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts)")
    }
  }

  @Test func aWatchAndAOneShotRunShareOneFile() async throws {
    try await onItsOwnThread {
      let (server, sources) = try Self.farm(12, delay: 0.2)
      let watch = WatchRun()
      defer { watch.remove() }
      let watching = try watch.start(["--min-interval", "1h", "-j", "2"] + sources)
      #expect(server.requestsReceived.wait(for: 1, timeout: 60))
      let oneShot = try watch.state.run(["--due", "-j", "2"] + sources)
      #expect(oneShot.status == 0, "\(oneShot.stderr)")
      #expect(watching.waitForOutput("\"type\":\"end\"", count: 1, timeout: 60))
      // Every source has ended in one process or the other once the watch has written the ends
      // of those the one-shot run left to it.
      let pulledByOneShot = oneShot.records("end").filter { $0["skipped"] == nil }.count
      #expect(
        watching.waitForOutput(
          "\"new_items\":2", count: sources.count - pulledByOneShot, timeout: 60))
      watching.send(SIGTERM)
      let watched = watching.finish(deadline: 60)
      #expect(watched.status == 0, "\(watched.stderr)")
      let items = (watched.records("item") + oneShot.records("item")).compactMap {
        $0["title"] as? String
      }
      #expect(items.count == Set(items).count, "an item delivered twice")
      #expect(items.count == 2 * sources.count)
      var counts: [String: Int] = [:]
      for request in server.requests { counts[request.target, default: 0] += 1 }
      #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts)")
      #expect(
        oneShot.records("end").contains {
          ["in_progress", "not_due"].contains($0["skipped"] as? String ?? "")
        }, "the one-shot run met none of the watch's sources")
    }
  }

  @Test func aCopyOfTheDatabaseFileAloneAfterARunHoldsEverySource() async throws {
    try await onItsOwnThread {
      let (server, sources) = try Self.farm(30, delay: 0)
      let state = StateRun()
      defer { state.remove() }
      let result = try state.run(sources)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(server.requests.count == 30)
      let copy = TemporaryState.path()
      defer { try? FileManager.default.removeItem(atPath: copy) }
      try FileManager.default.copyItem(atPath: state.statePath, toPath: copy)
      let listed = try FeedpullProcess.run(["state", "list", "--state", copy])
      #expect(listed.status == 0, "\(listed.stderr)")
      #expect(listed.stdout.split(separator: "\n").count == 30)
      // A run on the copy delivers nothing again.
      let again = try FeedpullProcess.run(
        ["-f", "jsonl", "--state", copy, "--per-host", "8", "--host-delay", "0"] + sources)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(again.records.filter { $0["type"] as? String == "item" }.isEmpty)
    }
  }

  @Test func stateCommandsOnAPathWithoutStateFailWithTwoAndCreateNothing() async throws {
    try await onItsOwnThread {
      let home = try SharedState.directory()
      defer { try? FileManager.default.removeItem(at: home) }
      let path = home.appendingPathComponent("missing/state.db").path
      for words in [["list"], ["export"], ["forget", "http://example.com/feed"]] {
        let result = try FeedpullProcess.run(["state"] + words + ["--state", path])
        #expect(result.status == 2, "\(words): \(result.stderr)")
        #expect(result.stderr.contains("no state"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
    }
  }

  @Test func listAndExportWorkOnAFileThisUserMayOnlyRead() async throws {
    try await onItsOwnThread {
      let server = try LoopbackHTTPServer(routes: ["/a": .ok(subscribedFeed(["a"]))])
      let home = try SharedState.directory()
      defer { try? FileManager.default.removeItem(at: home) }
      let path = home.appendingPathComponent("state.db").path
      let made = try FeedpullProcess.run(["-f", "jsonl", "--state", path, server.url("/a")])
      #expect(made.status == 0, "\(made.stderr)")
      // The owner makes the state readable to others, in a directory they cannot write.
      chmod(path, 0o644)
      chmod(home.path, 0o755)
      var prefix: [String] = []
      var binary = FeedpullProcess.binary.path
      if getuid() == 0 {
        // Root reads anything: the commands run as `nobody`, from a copy of the binary it may run.
        let copy = try SharedState.directory()
        defer { try? FileManager.default.removeItem(at: copy) }
        chmod(copy.path, 0o755)
        binary = copy.appendingPathComponent("feedpull").path
        try FileManager.default.copyItem(atPath: FeedpullProcess.binary.path, toPath: binary)
        prefix = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        for command in ["list", "export"] {
          let result = try FeedpullProcess.run(
            executable: URL(fileURLWithPath: prefix[0]),
            Array(prefix.dropFirst()) + [binary, "state", command, "--state", path])
          #expect(result.status == 0, "\(command): \(result.stderr)")
          #expect(result.stdout.contains(server.url("/a")), "\(command)")
        }
        let forget = try FeedpullProcess.run(
          executable: URL(fileURLWithPath: prefix[0]),
          Array(prefix.dropFirst()) + [
            binary, "state", "forget", server.url("/a"), "--state", path,
          ])
        #expect(forget.status == 1, "a file it may not write cannot be changed")
      } else {
        chmod(path, 0o444)
        chmod(home.path, 0o555)
        defer { chmod(home.path, 0o755) }
        for command in ["list", "export"] {
          let result = try FeedpullProcess.run(["state", command, "--state", path])
          #expect(result.status == 0, "\(command): \(result.stderr)")
          #expect(result.stdout.contains(server.url("/a")), "\(command)")
        }
      }
    }
  }

  @Test func theReadmeCronLineWorksOnAFreshHome() async throws {
    try await onItsOwnThread {
      let readme = try String(
        contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
      let cronLine = try #require(
        readme.split(separator: "\n").first { $0.contains("* * * * feedpull") })
      // The command is what follows the five time fields.
      let command = cronLine.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5)
        .joined(separator: " ")
      let (server, sources) = try Self.farm(3, delay: 0)
      let home = try SharedState.directory()
      defer { try? FileManager.default.removeItem(at: home) }
      let outlines = sources.map { "<outline text=\"f\" xmlUrl=\"\($0)\"/>" }.joined()
      try "<?xml version=\"1.0\"?><opml version=\"2.0\"><body>\(outlines)</body></opml>".write(
        to: home.appendingPathComponent("subscriptions.opml"), atomically: true, encoding: .utf8)
      // As cron runs it: sh, in the home directory, with the installed binary on the PATH.
      let path = FeedpullProcess.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
      let shell = [
        "/usr/bin/env", "-i", "HOME=\(home.path)", "PATH=\(path)", "/bin/sh", "-c", command,
      ]
      for run in 0..<2 {
        let result = try FeedpullProcess.run(
          executable: URL(fileURLWithPath: shell[0]), Array(shell.dropFirst()),
          currentDirectory: home)
        #expect(result.status == 0, "run \(run + 1): \(result.stderr)")
      }
      let items = try String(
        contentsOf: home.appendingPathComponent("items.jsonl"), encoding: .utf8)
      #expect(items.components(separatedBy: "\"type\":\"item\"").count - 1 == 6)
      // The second run finds nothing due: its `end` records say so, unless the line keeps items
      // only (`--records item`), when the file gains nothing from it.
      let writesEnds = !command.contains("--records item")
      #expect(
        items.components(separatedBy: "\"skipped\":\"not_due\"").count - 1 == (writesEnds ? 3 : 0))
      #expect(server.requests.count == 3)
      let state = home.appendingPathComponent(".local/share/feedpull/state.db").path
      #expect(SharedState.mode(state) == 0o600)
      for directory in [".local", ".local/share", ".local/share/feedpull"] {
        #expect(SharedState.mode(home.appendingPathComponent(directory).path) == 0o700)
      }
    }
  }
}
