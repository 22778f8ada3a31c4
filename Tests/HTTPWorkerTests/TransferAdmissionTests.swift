import Foundation
import Testing

@testable import HTTPWorker

/// The admission rules as a table, without sockets or clocks: each row is a sequence of steps
/// (enqueue, ask at a time, finish) and the decisions they must give.
@Suite struct TransferAdmissionTests {
  typealias Admission = TransferAdmission<Int>

  enum Step: Sendable {
    case enqueue(Int, String)
    case withdraw(Int, String)
    case finish(String)
    /// Ask at this many milliseconds; expect this decision.
    case ask(Int, Admission.Decision)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var limits: Admission.Limits
    var steps: [Step]
    var testDescription: String { name }
  }

  static func limits(_ inFlight: Int, _ perHost: Int, delayMilliseconds: Int = 0)
    -> Admission.Limits
  {
    .init(maxInFlight: inFlight, maxPerHost: perHost, hostDelay: .milliseconds(delayMilliseconds))
  }

  static let cases: [Case] = [
    Case(
      name: "first come, first served within the slots", limits: limits(2, 2),
      steps: [
        .enqueue(1, "a"), .enqueue(2, "b"), .enqueue(3, "c"),
        .ask(0, .start(1, host: "a")), .ask(0, .start(2, host: "b")), .ask(0, .waitForAnEnd),
        .finish("a"), .ask(0, .start(3, host: "c")), .ask(0, .idle),
      ]),
    Case(
      name: "a full host lets later hosts pass", limits: limits(8, 2),
      steps: [
        .enqueue(1, "a"), .enqueue(2, "a"), .enqueue(3, "a"), .enqueue(4, "b"),
        .ask(0, .start(1, host: "a")), .ask(0, .start(2, host: "a")),
        .ask(0, .start(4, host: "b")), .ask(0, .waitForAnEnd),
        .finish("a"), .ask(0, .start(3, host: "a")),
      ]),
    Case(
      name: "the host delay spaces request starts and names when to ask again",
      limits: limits(8, 8, delayMilliseconds: 1000),
      steps: [
        .enqueue(1, "a"), .enqueue(2, "a"), .enqueue(3, "b"),
        .ask(0, .start(1, host: "a")), .ask(0, .start(3, host: "b")),
        .ask(10, .waitUntil(.milliseconds(1000))), .ask(999, .waitUntil(.milliseconds(1000))),
        .ask(1000, .start(2, host: "a")), .ask(1000, .idle),
      ]),
    Case(
      name: "the earliest of several held hosts is the time to ask again",
      limits: limits(8, 8, delayMilliseconds: 500),
      steps: [
        .enqueue(1, "a"), .ask(0, .start(1, host: "a")),
        .enqueue(2, "b"), .ask(200, .start(2, host: "b")),
        .enqueue(3, "b"), .enqueue(4, "a"), .ask(300, .waitUntil(.milliseconds(500))),
        .ask(500, .start(4, host: "a")), .ask(500, .waitUntil(.milliseconds(700))),
        .ask(700, .start(3, host: "b")),
      ]),
    Case(
      name: "a host held by its cap waits for an end, not for a time",
      limits: limits(8, 1, delayMilliseconds: 100),
      steps: [
        .enqueue(1, "a"), .enqueue(2, "a"), .ask(0, .start(1, host: "a")),
        .ask(5_000, .waitForAnEnd), .finish("a"), .ask(5_000, .start(2, host: "a")),
      ]),
    Case(
      name: "a withdrawn transfer never starts, and its host's order is kept",
      limits: limits(1, 1),
      steps: [
        .enqueue(1, "a"), .enqueue(2, "b"), .enqueue(3, "a"), .withdraw(1, "a"),
        .ask(0, .start(2, host: "b")), .finish("b"), .ask(0, .start(3, host: "a")),
        .finish("a"), .ask(0, .idle),
      ]),
    Case(
      name: "limits below one are taken as one", limits: limits(0, 0),
      steps: [
        .enqueue(1, "a"), .enqueue(2, "b"), .ask(0, .start(1, host: "a")), .ask(0, .waitForAnEnd),
      ]
    ),
  ]

  @Test(arguments: cases) func decisions(_ row: Case) {
    var admission = Admission(limits: row.limits)
    for (index, step) in row.steps.enumerated() {
      switch step {
      case .enqueue(let id, let host): admission.enqueue(id, host: host)
      case .withdraw(let id, let host):
        let withdrawn = admission.withdraw(id, host: host)
        #expect(withdrawn, "step \(index)")
      case .finish(let host): admission.finished(host: host)
      case .ask(let milliseconds, let expected):
        let decision = admission.next(at: .milliseconds(milliseconds))
        #expect(decision == expected, "step \(index)")
      }
    }
  }

  /// Ten thousand transfers to one host: each decision looks at one host, not at every waiting
  /// transfer, so the whole queue drains in linear time.
  @Test func manyTransfersToOneHostDrainInOrder() {
    var admission = Admission(limits: Self.limits(16, 2))
    for id in 0..<10_000 { admission.enqueue(id, host: "a") }
    var started: [Int] = []
    while case .start(let id, _) = admission.next(at: .zero) {
      started.append(id)
      admission.finished(host: "a")
    }
    #expect(started == Array(0..<10_000))
    #expect(admission.waiting == 0 && admission.running == 0)
  }
}

/// A transfer's life as a table of events and the phases they lead to.
@Suite struct TransferLifecycleTests {
  static let refused = TransferError(kind: .http, message: "HTTP status 500", status: 500)
  static let cancelled = TransferError(kind: .cancelled, message: "cancelled")

  @Test func theUsualLife() {
    var life = TransferLifecycle()
    #expect(life.phase == .queued)
    life.handle(.started)
    #expect(life.phase == .awaitingResponse && !life.responseAccepted)
    life.handle(.responseAccepted)
    #expect(life.phase == .streaming && life.responseAccepted)
    life.handle(.paused)
    #expect(life.isPaused)
    life.handle(.resumed)
    #expect(life.phase == .streaming)
    life.handle(.ended)
    #expect(life.phase == .ended)
  }

  @Test func theFirstAbortReasonIsTheOneReported() {
    var life = TransferLifecycle()
    life.handle(.started)
    life.handle(.abort(Self.refused))
    life.handle(.abort(Self.cancelled))
    #expect(life.abortReason == Self.refused)
    #expect(!life.responseAccepted)
    life.handle(.ended)
    #expect(life.abortReason == nil && life.phase == .ended)
  }

  @Test(arguments: [
    [TransferLifecycle.Event.abort(TransferLifecycleTests.cancelled)],
    [.started, .abort(TransferLifecycleTests.cancelled)],
    [.started, .responseAccepted, .paused, .abort(TransferLifecycleTests.cancelled), .resumed],
  ])
  func everyPhaseBeforeTheEndCanBeAborted(_ events: [TransferLifecycle.Event]) {
    var life = TransferLifecycle()
    for event in events { life.handle(event) }
    #expect(life.abortReason == Self.cancelled)
    life.handle(.ended)
    #expect(life.phase == .ended)
  }
}

/// The politeness key: registrable domains by the Public Suffix List, IP literals as they are.
@Suite struct PoliteHostTests {
  @Test(arguments: [
    ("http://www.example.co.uk/feed", "example.co.uk"),
    ("https://Blog.Example.COM:8443/rss", "example.com"),
    ("http://alice.github.io/atom.xml", "alice.github.io"),
    ("http://127.0.0.1:8080/feed", "127.0.0.1"),
    ("http://[::1]:8080/feed", "::1"),
    ("http://a.localhost:8080/feed", "a.localhost"),
    ("http://localhost/feed", "localhost"),
    ("http://example.com./feed", "example.com"),
  ])
  func keys(_ url: String, _ expected: String) {
    #expect(PoliteHost.key(forURL: url) == expected)
  }

  @Test func aURLWithoutAHostHasNoKey() {
    #expect(PoliteHost.key(forURL: "file:///tmp/feed.xml") == nil)
  }

  /// The byte reader takes plain authorities only, and reads them as Foundation does; the rest
  /// it leaves to Foundation.
  @Test(arguments: [
    "http://example.com/feed", "HTTPS://Example.COM:8443/a?b#c", "http://a.b.c", "http://h:80",
    "https://x.example?q=1", "http://x.example#frag", "http://user:pw@example.com/",
    "http://[::1]:8080/", "http://ex%41mple.com/", "http://exa mple.com/", "http://bücher.de/",
    "ftp://example.com/", "http:/example.com", "http://", "http://:80/", "httpx://example.com/",
    "https://h.example:8443:9/",
  ])
  func plainHostsAgreeWithFoundation(_ url: String) {
    if let host = PoliteHost.plainHost(of: url) {
      #expect(host == URLComponents(string: url)?.host)
    }
  }

  @Test func plainAuthoritiesAreReadOnTheBytes() {
    #expect(PoliteHost.plainHost(of: "HTTPS://Example.COM:8443/a") == "Example.COM")
    #expect(PoliteHost.plainHost(of: "http://127.0.0.1:8080/feed") == "127.0.0.1")
    #expect(PoliteHost.plainHost(of: "http://user@example.com/") == nil)
    #expect(PoliteHost.plainHost(of: "http://[::1]/") == nil)
  }
}
