import FeedPullSupport
import Foundation
import TestSupport
import Testing

/// Several real `feedpull --due --state postgresql://…` processes on one database and one
/// loopback server: each source is requested once per pass, the items written add up to the
/// items served with no identity twice, a worker killed with `kill -9` loses only its leases,
/// and a database restarted under running workers is found again.
@Suite(.serialized) struct ManyWorkersTests {
  static let start: Int64 = 1_796_126_400

  /// A loopback server of `count` feeds: in pass p, feed n serves two items, `n-p-0` and
  /// `n-p-1` (new each pass), after `delay` seconds.
  final class FeedFarm: Sendable {
    let server: LoopbackHTTPServer
    let count: Int
    private let pass = TSanVisibleMutex(0)

    init(count: Int, delay: Double = 0) throws {
      self.count = count
      let pass = pass
      server = try LoopbackHTTPServer(routes: [:]) { request in
        guard request.target.hasPrefix("/f/") else { return nil }
        let feed = request.target.dropFirst(3)
        let current = pass.withLock { $0 }
        let body = subscribedFeed(["\(feed)-\(current)-0", "\(feed)-\(current)-1"])
        var script = HTTPScript.ok(body)
        if delay > 0 { script.steps.insert(.wait(delay), at: 0) }
        return script
      }
    }

    func beginPass(_ number: Int) { pass.withLock { $0 = number } }

    var sources: [String] { (0..<count).map { server.url("/f/\($0)") } }

    func served(pass: Int) -> Set<String> {
      Set((0..<count).flatMap { ["\($0)-\(pass)-0", "\($0)-\(pass)-1"] })
    }

    /// How many times each feed was requested, from `index` of the request log on.
    func requestCounts(from index: Int) -> [String: Int] {
      var counts: [String: Int] = [:]
      for request in server.requests.dropFirst(index) where request.target.hasPrefix("/f/") {
        counts[request.target, default: 0] += 1
      }
      return counts
    }

    func writeList() throws -> String {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("feedpull-list-\(UUID().uuidString).txt").path
      try sources.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
  }

  /// Starts one worker: `feedpull --due` on the shared database at `now`.
  static func worker(
    uri: String, list: String, now: Int64, lease: Double = 300, hostDelay: Double = 0
  ) throws -> RunningFeedpull {
    try RunningFeedpull(
      [
        "FEEDPULL_NOW=\(now)", "FEEDPULL_LEASE=\(lease)", FeedpullProcess.binary.path,
        "-f", "jsonl", "--state", uri, "--due", "-i", list, "-j", "8", "--per-host", "8",
        "--host-delay", "\(hostDelay)",
      ], executable: URL(fileURLWithPath: "/usr/bin/env"))
  }

  /// Item titles written, and sources pulled and ended ok, over several workers' outputs (a
  /// source another worker held ends `skipped`: not counted).
  static func tally(_ results: [FeedpullProcess.Result]) -> (items: [String], ended: [String]) {
    let records = results.flatMap(\.records)
    let items = records.filter { $0["type"] as? String == "item" }.compactMap {
      $0["title"] as? String
    }
    let ended = records.filter {
      $0["type"] as? String == "end" && $0["ok"] as? Bool == true && $0["skipped"] == nil
    }.compactMap { $0["source"] as? String }
    return (items, ended)
  }

  /// Waits until the last lease on the database has run out (leases are on its clock).
  static func waitForLeasesToExpire(_ cluster: PostgresCluster, uri: String) throws {
    let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
    let remaining = try cluster.query(
      "SELECT coalesce(extract(epoch FROM max(lease_until) - clock_timestamp()), 0) FROM sources",
      database: database)
    Thread.sleep(forTimeInterval: max(0, Double(remaining) ?? 0) + 0.1)
  }

  @Test func threeWorkersShareEachPassExactlyOnce() async throws {
    try await onItsOwnThread {
      let uri = try PostgresCluster.start().freshDatabase()
      let farm = try FeedFarm(count: 3000)
      let list = try farm.writeList()
      defer { try? FileManager.default.removeItem(atPath: list) }
      for pass in 0..<2 {
        farm.beginPass(pass)
        let before = farm.server.requests.count
        // Two days apart: every source is due again (the longest interval is a day).
        let now = Self.start + Int64(pass) * 2 * 86_400
        let workers = try (0..<3).map { _ in try Self.worker(uri: uri, list: list, now: now) }
        let results = workers.map { $0.finish(deadline: 300) }
        for result in results {
          #expect(result.status == 0, "\(result.stderr)")
          // Each worker took part: claims are a few at a time, never a whole pass.
          #expect(result.records.contains { $0["type"] as? String == "end" })
        }
        let counts = farm.requestCounts(from: before)
        #expect(counts.count == farm.count, "pass \(pass)")
        #expect(counts.values.allSatisfy { $0 == 1 }, "pass \(pass): a source requested twice")
        let (items, ended) = Self.tally(results)
        #expect(items.count == Set(items).count, "pass \(pass): an item written twice")
        #expect(Set(items) == farm.served(pass: pass), "pass \(pass)")
        #expect(Set(ended) == Set(farm.sources))
      }
    }
  }

  /// `--watch` on the shared store: two watch workers started together share the first pass
  /// (each source requested once, each item written once), then sleep until the next check
  /// (15 minutes away) and end cleanly on SIGTERM.
  @Test func twoWatchWorkersShareAPassAndStopOnSigterm() async throws {
    try await onItsOwnThread {
      let uri = try PostgresCluster.start().freshDatabase()
      let farm = try FeedFarm(count: 200)
      let list = try farm.writeList()
      defer { try? FileManager.default.removeItem(atPath: list) }
      let output = EventLatch()
      let watchers = try (0..<2).map { _ in
        try RunningFeedpull(
          [
            "FEEDPULL_NOW=\(Self.start)", FeedpullProcess.binary.path, "-f", "jsonl", "--watch",
            "--state", uri, "-i", list, "-j", "8", "--per-host", "8", "--host-delay", "0",
          ], executable: URL(fileURLWithPath: "/usr/bin/env"), outputEvents: output)
      }
      // Every source's `end` is out once the two have written as many as there are sources;
      // each wait ends with the next piece of output from either, or at the deadline.
      // A pulled source's `end` (a watch also writes `not_due` ends for sources the other
      // pulled before it looked at them: those do not count).
      let endMarker = "\"new_items\":"
      let deadline = Date(timeIntervalSinceNow: 120)
      var pieces = 0
      while watchers.map({ $0.outputCount(of: endMarker) }).reduce(0, +) < farm.count,
        Date() < deadline
      {
        pieces += 1
        output.wait(for: pieces, timeout: deadline.timeIntervalSinceNow)
      }
      for watcher in watchers { watcher.send(SIGTERM) }
      let results = watchers.map { $0.finish(deadline: 60) }
      for result in results { #expect(result.status == 0, "\(result.stderr)") }
      let counts = farm.requestCounts(from: 0)
      #expect(counts.count == farm.count)
      #expect(counts.values.allSatisfy { $0 == 1 }, "a source requested twice")
      let (items, ended) = Self.tally(results)
      #expect(items.count == Set(items).count, "an item written twice")
      #expect(Set(items) == farm.served(pass: 0))
      #expect(Set(ended) == Set(farm.sources))
    }
  }

  @Test func theHostDelayHoldsAcrossWorkers() async throws {
    try await onItsOwnThread {
      let uri = try PostgresCluster.start().freshDatabase()
      // More sources than one worker's 8 slots: both workers hold some at once.
      let farm = try FeedFarm(count: 20)
      let list = try farm.writeList()
      defer { try? FileManager.default.removeItem(atPath: list) }
      let workers = try (0..<2).map { _ in
        try Self.worker(uri: uri, list: list, now: Self.start, hostDelay: 0.25)
      }
      for result in workers.map({ $0.finish(deadline: 120) }) {
        #expect(result.status == 0, "\(result.stderr)")
      }
      let requests = farm.server.requests.filter { $0.target.hasPrefix("/f/") }
      // When the kernel took the bytes in: the server's own thread, in this busy test process,
      // can be scheduled a tenth of a second late on a loaded host and so stamp two requests
      // closer together than they arrived.
      let times = requests.compactMap(\.arrivedAt).sorted()
      #expect(requests.count == 20)
      #expect(times.count == 20)
      // One host (127.0.0.1): each request starts at least the delay after the previous one,
      // whichever worker sent it (a little less allowed for the way to the server).
      let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
      #expect(gaps.allSatisfy { $0 >= 0.2 }, "gaps \(gaps)")
    }
  }

  @Test func sigtermEndsAClaimingWorkerCleanlyAndStateCommandsReadTheDatabase() async throws {
    try await onItsOwnThread {
      let cluster = try PostgresCluster.start()
      let uri = try cluster.freshDatabase()
      let farm = try FeedFarm(count: 40, delay: 0.5)
      let list = try farm.writeList()
      defer { try? FileManager.default.removeItem(atPath: list) }
      let worker = try Self.worker(uri: uri, list: list, now: Self.start)
      #expect(farm.server.requestsReceived.wait(for: 1, timeout: 60))
      worker.send(SIGTERM)
      let result = worker.finish(deadline: 60)
      #expect(result.status == 143, "\(result.stderr)")
      let ends = result.records.filter { $0["type"] as? String == "end" }
      // Every source of its list has its end, those it had not started too.
      #expect(Set(ends.compactMap { $0["source"] as? String }) == Set(farm.sources))
      #expect(
        ends.allSatisfy { ($0["error"] as? [String: Any])?["kind"] as? String == "cancelled" })
      // Cancelled sources stay due and their leases are given back: another worker takes them.
      let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
      #expect(
        try cluster.query(
          "SELECT count(*) FROM sources WHERE lease_until IS NOT NULL", database: database) == "0")

      // A source is in the database once a run has looked at it (the first of the list were).
      let known = Int(try cluster.query("SELECT count(*) FROM sources", database: database)) ?? 0
      #expect(known >= 1)
      let listed = try FeedpullProcess.run(["state", "list", "--state", uri])
      #expect(listed.status == 0, "\(listed.stderr)")
      #expect(listed.stdout.split(separator: "\n").count == known)
      #expect(listed.stdout.contains(farm.sources[0]))
      #expect(
        try FeedpullProcess.run(["state", "forget", farm.sources[0], "--state", uri]).status == 0)
      let exported = try FeedpullProcess.run(["state", "export", "--state", uri])
      #expect(exported.records.count == known - 1)
      #expect(!exported.stdout.contains("\"\(farm.sources[0])\""))
    }
  }

  @Test func aRetryAfterSeenByOneWorkerHoldsForAnother() async throws {
    try await onItsOwnThread {
      let uri = try PostgresCluster.start().freshDatabase()
      let server = try LoopbackHTTPServer(routes: [
        "/a": HTTPScript(
          status: 429, headers: [("Retry-After", "3600")], steps: [.send(Array("slow".utf8))]),
        "/b": .ok(subscribedFeed(["b1"])),
      ])
      func list(_ path: String) throws -> String {
        let file = FileManager.default.temporaryDirectory
          .appendingPathComponent("feedpull-list-\(UUID().uuidString).txt").path
        try server.url(path).write(toFile: file, atomically: true, encoding: .utf8)
        return file
      }
      let lists = [try list("/a"), try list("/b")]
      defer { lists.forEach { try? FileManager.default.removeItem(atPath: $0) } }
      let first = try Self.worker(uri: uri, list: lists[0], now: Self.start).finish()
      #expect(first.end(of: server.url("/a"))?["status"] as? Int == 429)
      // Another process, another source of the same host (127.0.0.1): not requested.
      let second = try Self.worker(uri: uri, list: lists[1], now: Self.start + 60).finish()
      let end = second.end(of: server.url("/b"))
      #expect((end?["error"] as? [String: Any])?["kind"] as? String == "deferred")
      #expect(!server.requests.contains { $0.target == "/b" })
    }
  }

  @Test func aKilledWorkersSourcesArePulledByOthersOnceItsLeaseExpires() async throws {
    try await onItsOwnThread {
      let cluster = try PostgresCluster.start()
      let uri = try cluster.freshDatabase()
      let farm = try FeedFarm(count: 600, delay: 0.05)
      let list = try farm.writeList()
      defer { try? FileManager.default.removeItem(atPath: list) }
      let lease = 2.0
      let workers = try (0..<3).map { _ in
        try Self.worker(uri: uri, list: list, now: Self.start, lease: lease)
      }
      // Mid-pass: the victim has pulled and ended some sources and holds others in flight (the
      // sources other workers hold end `in_progress` with no `new_items`: not counted).
      #expect(workers[0].waitForOutput("\"new_items\":", count: 20, timeout: 120))
      workers[0].send(SIGKILL)
      let victim = workers[0].finish()
      let survivors = workers.dropFirst().map { $0.finish(deadline: 300) }
      for result in survivors { #expect(result.status == 0, "\(result.stderr)") }

      // The victim's leases run out on the database's clock; then a worker takes what it held.
      try Self.waitForLeasesToExpire(cluster, uri: uri)
      let heldBack = try Self.worker(uri: uri, list: list, now: Self.start).finish(deadline: 120)
      #expect(heldBack.status == 0, "\(heldBack.stderr)")

      let (items, ended) = Self.tally([victim] + survivors + [heldBack])
      let (victimItems, victimEnded) = Self.tally([victim])
      // Every source was pulled and recorded. Its `end` line is the last thing written, after
      // the commit, so a kill between the two loses that line of the victim's output and
      // nothing else: such a source is recorded in the database (not due again) and its items
      // were written before its state.
      let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
      let recorded = Set(
        try cluster.query(
          "SELECT source FROM sources WHERE next_check_at > \(Self.start)", database: database
        ).split(separator: "\n").map(String.init))
      #expect(recorded == Set(farm.sources), "a source of the killed worker was not recorded")
      let withoutEnd = Set(farm.sources).subtracting(ended)
      #expect(withoutEnd.count <= 8, "more ends lost than the victim had slots: \(withoutEnd)")
      for source in withoutEnd {
        let name = source.split(separator: "/").last.map(String.init) ?? source
        #expect(
          victimItems.contains { $0.hasPrefix(name + "-") },
          "\(source) has no end and the victim wrote none of its items")
      }
      #expect(Set(items) == farm.served(pass: 0), "an item was lost")
      // At least once: only what the victim wrote before its end was recorded comes twice.
      let repeated = Dictionary(grouping: items, by: { $0 }).filter { $0.value.count > 1 }.keys
      let victimUnended = Set(victimItems.map { "\($0.split(separator: "-")[0])" })
        .subtracting(victimEnded.compactMap { $0.split(separator: "/").last.map(String.init) })
      for item in repeated {
        #expect(victimUnended.contains(String(item.split(separator: "-")[0])), "\(item) twice")
      }
      // What the victim had requested and not recorded was requested again, by a survivor
      // (when it was still running as the leases ran out) or by the later worker; nothing
      // else was. That is its pulls in flight (8 slots) and those that had ended and waited
      // for its group commit (a slot's pull takes 50 ms here, longer than the commit waits,
      // so at most one more a slot): never a source whose `end` the victim wrote, since it
      // writes an end only after recording it.
      let counts = farm.requestCounts(from: 0)
      #expect(counts.values.allSatisfy { $0 <= 2 })
      let twice = counts.filter { $0.value == 2 }.map(\.key)
      #expect(!twice.isEmpty, "the victim held nothing in flight: the test did not test a kill")
      #expect(twice.count <= 2 * 8, "more twice than the victim's 8 slots and a commit's ends")
      let victimEndedSet = Set(victimEnded)
      for target in twice {
        #expect(
          !victimEndedSet.contains(farm.server.url(target)),
          "\(target) was requested again after the victim recorded it and wrote its end")
      }
    }
  }

  @Test func workersRecoverWhenTheDatabaseRestartsUnderThem() async throws {
    try await onItsOwnThread {
      let cluster = try PostgresCluster.startPrivate()
      let uri = try cluster.freshDatabase()
      let farm = try FeedFarm(count: 400, delay: 0.05)
      let list = try farm.writeList()
      defer { try? FileManager.default.removeItem(atPath: list) }
      let workers = try (0..<2).map { _ in
        try Self.worker(uri: uri, list: list, now: Self.start, lease: 2)
      }
      #expect(farm.server.requestsReceived.wait(for: 50, timeout: 120))
      try cluster.stopServer()
      let requestsWhileDown = farm.server.requests.count
      try cluster.startServer()
      let results = workers.map { $0.finish(deadline: 300) }
      #expect(farm.server.requests.count > requestsWhileDown + 100, "the workers did not resume")
      #expect(
        results.contains { $0.stderr.contains("lost the connection") },
        "no worker saw the database go away: the test did not test a restart")
      // Sources in flight when the database went away could not be recorded: their lease runs
      // out and the next run pulls them; nothing is lost.
      try Self.waitForLeasesToExpire(cluster, uri: uri)
      let after = try Self.worker(uri: uri, list: list, now: Self.start, lease: 2).finish()
      #expect(after.status == 0, "\(after.stderr)")
      let (items, ended) = Self.tally(results + [after])
      #expect(Set(ended) == Set(farm.sources))
      #expect(Set(items) == farm.served(pass: 0))
      let database = String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
      #expect(
        try cluster.query(
          "SELECT count(*) FROM sources WHERE next_check_at > \(Self.start)", database: database)
          == "\(farm.count)")
    }
  }
}
