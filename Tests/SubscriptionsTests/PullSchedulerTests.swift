import Testing

@testable import Subscriptions

/// The scheduler as tables on virtual time, without a store, a socket or a clock: each row is a
/// configuration, the named sources, and steps (an event at a time, the actions it must give).
/// Actions are compared as short text, so that a row reads as what happens.
@Suite struct PullSchedulerTests {
  /// 2026-12-01T12:00:00Z: the schedule's clock at the start of every row.
  static let base: Int64 = 1_796_126_400

  struct Step: Sendable {
    /// Seconds since the row's start, on both clocks (or the schedule's clock fixed).
    var at: Double
    var event: SchedulerEvent
    var expected: [String]
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var configuration: PullScheduler.Configuration
    var names: [String] = []
    /// The schedule's clock stays at the start (a pass with a fixed time); elapsed time moves.
    var fixedClock = false
    var steps: [Step]
    var testDescription: String { name }
  }

  static func at(_ seconds: Double, _ event: SchedulerEvent, _ expected: [String]) -> Step {
    Step(at: seconds, event: event, expected: expected)
  }

  static func moment(_ seconds: Int64) -> Duration { .seconds(base + seconds) }

  static func state(
    _ source: String, next: Int64? = nil, change: (inout SubscriptionState) -> Void = { _ in }
  )
    -> SubscriptionState
  {
    var state = SubscriptionState(source: source)
    if let next { state.nextCheckAt = moment(next) }
    state.lastUnconditionalAt = moment(-60)
    change(&state)
    return state
  }

  static func granted(_ sources: String...) -> SchedulerEvent {
    .claimed(sources.map { .granted(state($0)) }, holds: [:])
  }

  static func ended(_ source: String, next: Int64 = 3600, reason: CheckReason = .default)
    -> SchedulerEvent
  {
    .pullEnded(PullEnd(source: source, nextCheckAt: moment(next), reason: reason, gone: false))
  }

  static func transferEnded(_ source: String) -> SchedulerEvent {
    .transferEnded(source: source, hostHold: nil)
  }

  static func pass(slots: Int = 2, onlyDue: Bool = false, claimAtLeast: Int = 1)
    -> PullScheduler.Configuration
  {
    var configuration = PullScheduler.Configuration()
    configuration.slots = slots
    configuration.onlyDue = onlyDue
    configuration.claimAtLeast = claimAtLeast
    return configuration
  }

  /// A pass whose claims grow with the rate of ends; no lease renewal, so that only claims
  /// and starts show.
  static func growing(slots: Int, claimAtLeast: Int, claimAtMost: Int, span: Int64)
    -> PullScheduler.Configuration
  {
    var configuration = pass(slots: slots, claimAtLeast: claimAtLeast)
    configuration.claimAtMost = claimAtMost
    configuration.claimSpan = .seconds(span)
    configuration.leaseRenewal = nil
    return configuration
  }

  static func watch(slots: Int = 2) -> PullScheduler.Configuration {
    var configuration = pass(slots: slots)
    configuration.watch = true
    return configuration
  }

  static func everyDue(slots: Int = 1, watch: Bool = false, claimAtLeast: Int = 1)
    -> PullScheduler.Configuration
  {
    var configuration = pass(slots: slots, claimAtLeast: claimAtLeast)
    configuration.named = false
    configuration.watch = watch
    return configuration
  }

  static let cases: [Case] = [
    Case(
      name: "a pass claims the named sources in order and starts them as slots free",
      configuration: pass(slots: 2), names: ["a", "b", "c", "a"],
      steps: [
        at(0, .start, ["claim a,b,c all limit 4"]),
        at(0, granted("a", "b", "c"), ["start a", "start b", "wake +20s"]),
        at(1, ended("a"), ["start c"]),
        at(2, ended("b"), []),
        at(3, ended("c"), ["wake none", "finish"]),
      ]),
    Case(
      name: "a --due pass writes not_due and in_progress ends and pulls the rest",
      configuration: pass(slots: 4, onlyDue: true), names: ["a", "b", "c"],
      steps: [
        at(0, .start, ["claim a,b,c due limit 8"]),
        at(
          0,
          .claimed(
            [
              .notDue(at: moment(600), reason: .ttl), .leased(until: moment(100)),
              .granted(state("c")),
            ], holds: [:]),
          [
            "skip a not_due @600 ttl", "skip b in_progress", "start c", "wake +20s",
          ]),
        at(5, ended("c"), ["wake none", "finish"]),
      ]),
    Case(
      name: "the grant limit leaves the rest in line; claims grow while few sources are due",
      configuration: pass(slots: 1, onlyDue: true), names: ["a", "b", "c", "d"],
      steps: [
        at(0, .start, ["claim a,b due limit 2"]),
        at(
          0, .claimed([.notDue(at: moment(600), reason: .ttl), .granted(state("b"))], holds: [:]),
          ["skip a not_due @600 ttl", "start b", "claim c,d due limit 1"]),
        // The store looked at c only: d stays in line.
        at(0, granted("c"), ["wake +20s"]),
        at(1, ended("b"), ["start c", "claim d due limit 1"]),
        at(1, granted("d"), []),
        at(2, ended("c"), ["start d"]),
        at(3, ended("d"), ["wake none", "finish"]),
      ]),
    Case(
      name: "the waiting sources are refilled once half the window is free, not one by one",
      configuration: pass(slots: 4), names: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
      steps: [
        at(0, .start, ["claim a,b,c,d,e,f,g,h all limit 8"]),
        at(
          0, granted("a", "b", "c", "d", "e", "f", "g", "h"),
          ["start a", "start b", "start c", "start d", "wake +20s"]),
        at(1, ended("a"), ["start e"]),
        at(1, ended("b"), ["start f"]),
        at(1, ended("c"), ["start g"]),
        at(1, ended("d"), ["start h", "claim i,j all limit 4"]),
        at(1, granted("i", "j"), []),
      ]),
    Case(
      name: "claims of at least claimAtLeast: the window is twice that, refilled at half",
      configuration: pass(slots: 2, claimAtLeast: 4),
      names: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"],
      steps: [
        at(0, .start, ["claim a,b,c,d,e,f,g,h all limit 8"]),
        at(
          0, granted("a", "b", "c", "d", "e", "f", "g", "h"),
          ["start a", "start b", "wake +20s"]),
        at(1, ended("a"), ["start c"]),
        at(1, ended("b"), ["start d"]),
        at(1, ended("c"), ["start e"]),
        // Four of the eight free: half the window, a claim of four (not of the two slots).
        at(1, ended("d"), ["start f", "claim i,j,k,l all limit 4"]),
        at(1, granted("i", "j", "k", "l"), []),
        at(2, ended("e"), ["start g"]),
      ]),
    Case(
      name: "claims grow with the rate of ends, up to claimAtMost, and shrink when ends slow",
      configuration: growing(slots: 2, claimAtLeast: 2, claimAtMost: 5, span: 2),
      names: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"],
      steps: [
        at(0, .start, ["claim a,b,c,d all limit 4"]),
        at(0, granted("a", "b", "c", "d"), ["start a", "start b"]),
        at(0.5, ended("a"), ["start c"]),
        // Two ends in half a second: eight in the 2 s span, five at most: a window of ten.
        at(0.5, ended("b"), ["start d", "claim e,f,g,h,i,j,k,l all limit 8"]),
        at(0.5, granted("e", "f", "g", "h", "i", "j", "k", "l"), []),
        at(4, ended("c"), ["start e"]),
        at(4, ended("d"), ["start f"]),
        at(8, ended("e"), ["start g"]),
        at(8, ended("f"), ["start h"]),
        at(12, ended("g"), ["start i"]),
        // Half the window free, but six ends in 11.5 s fill no more than the least claim: the
        // window is four again, and four are held.
        at(12, ended("h"), ["start j"]),
        at(16, ended("i"), ["start k"]),
        at(16, ended("j"), ["start l", "claim m,n,o,p all limit 2"]),
        at(16, granted("m", "n"), []),
      ]),
    Case(
      name: "the claims' rate counts an end once, when its transfer ends, not at its record",
      configuration: growing(slots: 2, claimAtLeast: 2, claimAtMost: 8, span: 1),
      names: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"],
      steps: [
        at(0, .start, ["claim a,b,c,d all limit 4"]),
        at(0, granted("a", "b", "c", "d"), ["start a", "start b"]),
        at(0.5, transferEnded("a"), ["start c"]),
        // Two ends in half a second: four in the 1 s span, a window of eight.
        at(0.5, transferEnded("b"), ["start d", "claim e,f,g,h,i,j all limit 6"]),
        at(0.5, granted("e", "f", "g", "h", "i", "j"), []),
        // Recorded: not counted again.
        at(0.6, ended("a"), []),
        at(0.6, ended("b"), []),
        at(2.5, transferEnded("c"), ["start e"]),
        at(2.5, transferEnded("d"), ["start f"]),
        at(2.5, transferEnded("e"), ["start g"]),
        // Half the window free; four ends in two seconds are two in the span, the least claim:
        // the window shrinks to four, which the four held fill (six counted would claim two).
        at(2.5, transferEnded("f"), ["start h"]),
      ]),
    Case(
      name: "every due source: claims of at least claimAtLeast, as the window frees by half",
      configuration: everyDue(slots: 1, claimAtLeast: 2),
      steps: [
        at(0, .start, ["claimDue 4"]),
        at(0, granted("a", "b", "c", "d"), ["start a", "wake +20s"]),
        at(1, ended("a"), ["start b"]),
        // Two of the four free: a claim of two, though one slot is the most that frees at once.
        at(2, ended("b"), ["start c", "claimDue 2"]),
        at(2, .claimed([], holds: [:]), []),
        at(3, ended("c"), ["start d"]),
        at(4, ended("d"), ["wake none", "finish"]),
      ]),
    Case(
      name: "every due source: claimed as slots free until the store has none left",
      configuration: everyDue(slots: 1),
      steps: [
        at(0, .start, ["claimDue 2"]),
        at(0, granted("x", "y"), ["start x", "wake +20s"]),
        at(1, ended("x"), ["start y", "claimDue 1"]),
        at(1, .claimed([], holds: [:]), []),
        at(2, ended("y"), ["wake none", "finish"]),
      ]),
    Case(
      name: "gone and held sources are postponed with a deferred end; a hold seen in the run "
        + "holds the host's later sources",
      configuration: pass(slots: 1), names: ["http://a.example/1", "http://b.example/1"],
      steps: [
        at(0, .start, ["claim http://a.example/1,http://b.example/1 all limit 2"]),
        at(
          0,
          .claimed(
            [
              .granted(state("http://a.example/1") { $0.gone = true }),
              .granted(state("http://b.example/1")),
            ], holds: ["b.example": moment(7200)]),
          [
            "skip http://a.example/1 gone @86400 default",
            "postpone http://a.example/1 @86400 default",
            "skip http://b.example/1 held b.example @7200 retry_after",
            "postpone http://b.example/1 @7200 retry_after", "finish",
          ]),
      ]),
    Case(
      name: "a Retry-After that a pull ends with holds its host's sources claimed later",
      configuration: pass(slots: 1), names: ["http://h.example/1", "http://h.example/2"],
      steps: [
        at(0, .start, ["claim http://h.example/1,http://h.example/2 all limit 2"]),
        at(
          0, granted("http://h.example/1", "http://h.example/2"),
          ["start http://h.example/1", "wake +20s"]),
        at(
          1,
          .pullEnded(
            PullEnd(
              source: "http://h.example/1", nextCheckAt: moment(3600), reason: .retryAfter,
              hostHold: .init(host: "h.example", until: moment(3600)), gone: false)),
          [
            "skip http://h.example/2 held h.example @3600 retry_after",
            "postpone http://h.example/2 @3600 retry_after", "wake none", "finish",
          ]),
      ]),
    Case(
      name: "a transfer's end frees its slot at once; the pass ends when every end is recorded",
      configuration: pass(slots: 1), names: ["a", "b"],
      steps: [
        at(0, .start, ["claim a,b all limit 2"]),
        at(0, granted("a", "b"), ["start a", "wake +20s"]),
        at(1, .transferEnded(source: "a", hostHold: nil), ["start b"]),
        at(2, .transferEnded(source: "b", hostHold: nil), []),
        at(3, ended("a"), []),
        at(3, ended("b"), ["wake none", "finish"]),
      ]),
    Case(
      name: "a Retry-After known when the transfer ends holds the next source before the record",
      configuration: pass(slots: 1), names: ["http://h.example/1", "http://h.example/2"],
      steps: [
        at(0, .start, ["claim http://h.example/1,http://h.example/2 all limit 2"]),
        at(
          0, granted("http://h.example/1", "http://h.example/2"),
          ["start http://h.example/1", "wake +20s"]),
        at(
          1,
          .transferEnded(
            source: "http://h.example/1",
            hostHold: .init(host: "h.example", until: moment(3600))),
          [
            "skip http://h.example/2 held h.example @3600 retry_after",
            "postpone http://h.example/2 @3600 retry_after",
          ]),
        at(
          2,
          .pullEnded(
            PullEnd(
              source: "http://h.example/1", nextCheckAt: moment(3600), reason: .retryAfter,
              hostHold: .init(host: "h.example", until: moment(3600)), gone: false)),
          ["wake none", "finish"]),
      ]),
    Case(
      name: "a watch does not claim a source again while its end is being recorded",
      configuration: watch(slots: 1), names: ["a"],
      steps: [
        at(0, .start, ["claim a due limit 2"]),
        at(0, granted("a"), ["start a", "wake +20s"]),
        at(1, .transferEnded(source: "a", hostHold: nil), []),
        // Not idle, nothing to claim: the source comes back to the schedule when recorded.
        at(1.5, .timer, []),
        at(2, ended("a", next: 3600), ["wake @3600", "notice idle @3600 a default"]),
      ]),
    Case(
      name: "with --force, gone and held sources are pulled",
      configuration: {
        var configuration = pass(slots: 2)
        configuration.force = true
        return configuration
      }(), names: ["http://a.example/1"],
      steps: [
        at(0, .start, ["claim http://a.example/1 all limit 4"]),
        at(
          0,
          .claimed(
            [.granted(state("http://a.example/1") { $0.gone = true })],
            holds: ["a.example": moment(60)]), ["start http://a.example/1", "wake +20s"]),
      ]),
    Case(
      name: "the daily pull without validators comes when the last one is a day old",
      configuration: pass(slots: 2), names: ["old", "fresh"],
      steps: [
        at(0, .start, ["claim old,fresh all limit 4"]),
        at(
          0,
          .claimed(
            [
              .granted(state("old") { $0.lastUnconditionalAt = moment(-86_400) }),
              .granted(state("fresh") { $0.lastUnconditionalAt = moment(-86_399) }),
            ], holds: [:]), ["start old unconditional", "start fresh", "wake +20s"]),
      ]),
    Case(
      name: "a store that fails is asked again after a growing pause, and a pass gives up",
      configuration: {
        var configuration = pass(slots: 1)
        configuration.storeGiveUp = .seconds(1)
        return configuration
      }(), names: ["a"], fixedClock: true,
      steps: [
        at(0, .start, ["claim a all limit 2"]),
        at(
          0, .claimFailed(StoreError(message: "down")), ["notice store failed: down", "wake +0.1s"]),
        at(0.1, .timer, ["claim a all limit 2"]),
        at(0.1, .claimFailed(StoreError(message: "down")), ["wake +0.3s"]),
        at(0.3, .timer, ["claim a all limit 2"]),
        at(0.3, .claimFailed(StoreError(message: "down")), ["wake +0.7s"]),
        at(0.7, .timer, ["claim a all limit 2"]),
        at(0.7, .claimFailed(StoreError(message: "down")), ["wake +1.5s"]),
        // Past the limit: one last try, then the pass ends with the store's error.
        at(1.5, .timer, ["claim a all limit 2"]),
        at(1.5, .claimFailed(StoreError(message: "down")), ["wake none", "finish down"]),
      ]),
    Case(
      name: "a store that comes back is told, and the pass goes on",
      configuration: pass(slots: 1), names: ["a"],
      steps: [
        at(0, .start, ["claim a all limit 2"]),
        at(
          0, .claimFailed(StoreError(message: "down")), ["notice store failed: down", "wake +0.1s"]),
        at(0.1, .timer, ["claim a all limit 2"]),
        at(0.1, granted("a"), ["notice store back", "start a", "wake +20.1s"]),
        at(1, ended("a"), ["wake none", "finish"]),
      ]),
    Case(
      name: "a stop mid-pass cancels what runs, ends the waiting and unclaimed sources "
        + "cancelled, and finishes when the last pull has ended",
      configuration: pass(slots: 1), names: ["a", "b", "c", "d"],
      steps: [
        at(0, .start, ["claim a,b all limit 2"]),
        at(0, granted("a", "b"), ["start a", "wake +20s"]),
        at(
          1, .stop,
          [
            "cancel", "release b", "skip b cancelled", "skip c cancelled", "skip d cancelled",
          ]),
        at(2, ended("a"), ["wake none", "finish"]),
      ]),
    Case(
      name: "leases held are renewed every third of their length",
      configuration: pass(slots: 1), names: ["a"],
      steps: [
        at(0, .start, ["claim a all limit 2"]),
        at(0, granted("a"), ["start a", "wake +20s"]),
        at(20, .timer, ["renew a", "wake +40s"]),
        at(40, .timer, ["renew a", "wake +60s"]),
        at(41, ended("a"), ["wake none", "finish"]),
      ]),
    Case(
      name: "a watch tells when it sleeps until and why, and pulls each source when due",
      configuration: watch(slots: 2), names: ["a", "b"],
      steps: [
        at(0, .start, ["claim a,b due limit 4"]),
        at(
          0,
          .claimed(
            [.granted(state("a")), .notDue(at: moment(600), reason: .itemRate)], holds: [:]),
          ["skip b not_due @600 item_rate", "start a", "wake @600 +20s"]),
        at(2, ended("a", next: 3600, reason: .ttl), ["wake @600", "notice idle @600 b item_rate"]),
        at(600, .timer, ["claim b due limit 4"]),
        at(600, granted("b"), ["start b", "wake @3600 +620s"]),
        at(
          601, ended("b", next: 7200, reason: .cacheControl),
          ["wake @3600", "notice idle @3600 a ttl"]),
        at(3600, .timer, ["claim a due limit 4"]),
        at(
          3600, .claimed([.notDue(at: moment(4000), reason: .ttl)], holds: [:]),
          ["wake @4000", "notice idle @4000 a ttl"]),
      ]),
    Case(
      name: "a watch looks again at a source another process holds once its lease ends",
      configuration: watch(slots: 1), names: ["a"],
      steps: [
        at(0, .start, ["claim a due limit 2"]),
        at(
          0, .claimed([.leased(until: moment(60))], holds: [:]),
          ["wake @61", "notice idle @61 a -"]),
        at(61, .timer, ["claim a due limit 2"]),
        at(
          61, .claimed([.notDue(at: moment(3600), reason: .ttl)], holds: [:]),
          ["wake @3600", "notice idle @3600 a ttl"]),
      ]),
    Case(
      name: "a gone source leaves a watch's schedule; a held one waits for its hold",
      configuration: watch(slots: 2), names: ["http://a.example/1", "http://b.example/1"],
      steps: [
        at(0, .start, ["claim http://a.example/1,http://b.example/1 due limit 4"]),
        at(
          0,
          .claimed(
            [
              .granted(state("http://a.example/1") { $0.gone = true }),
              .granted(state("http://b.example/1")),
            ], holds: ["b.example": moment(900)]),
          [
            "skip http://a.example/1 gone @86400 default",
            "postpone http://a.example/1 @86400 default",
            "skip http://b.example/1 held b.example @900 retry_after",
            "postpone http://b.example/1 @900 retry_after", "wake @900",
            "notice idle @900 http://b.example/1 retry_after",
          ]),
        at(900, .timer, ["claim http://b.example/1 due limit 4"]),
      ]),
    Case(
      name: "a reloaded list: new sources are looked at, removed ones leave, the user is told",
      configuration: watch(slots: 1), names: ["a", "b"],
      steps: [
        at(0, .start, ["claim a,b due limit 2"]),
        at(
          0,
          .claimed(
            [
              .notDue(at: moment(600), reason: .ttl), .notDue(at: moment(700), reason: .ttl),
            ], holds: [:]),
          [
            "skip a not_due @600 ttl", "skip b not_due @700 ttl", "wake @600",
            "notice idle @600 a ttl",
          ]),
        at(
          10, .reload(SourceList(["b", "c"])),
          ["notice reloaded +1 -1 =2", "claim c due limit 2"]),
        at(
          10, .claimed([.notDue(at: moment(300), reason: .itemRate)], holds: [:]),
          ["skip c not_due @300 item_rate", "wake @300", "notice idle @300 c item_rate"]),
      ]),
    Case(
      name: "a source in flight that leaves the list and comes back is not claimed until it ends",
      configuration: watch(slots: 1), names: ["a", "b"],
      steps: [
        at(0, .start, ["claim a,b due limit 2"]),
        at(
          0, .claimed([.granted(state("a")), .notDue(at: moment(600), reason: .ttl)], holds: [:]),
          ["skip b not_due @600 ttl", "start a", "wake @600 +20s"]),
        at(10, .reload(SourceList(["b"])), ["notice reloaded +0 -1 =1"]),
        at(
          20, .reload(SourceList(["b", "a"])),
          ["notice reloaded +1 -0 =2", "renew a", "wake @600 +40s"]),
        at(30, ended("a"), ["wake @600", "notice idle @600 b ttl"]),
      ]),
    Case(
      name: "a source being recorded that leaves the list is still renewed, and ends once",
      configuration: watch(slots: 1), names: ["a", "b"],
      steps: [
        at(0, .start, ["claim a,b due limit 2"]),
        at(
          0, .claimed([.granted(state("a")), .notDue(at: moment(600), reason: .ttl)], holds: [:]),
          ["skip b not_due @600 ttl", "start a", "wake @600 +20s"]),
        at(5, .transferEnded(source: "a", hostHold: nil), []),
        at(10, .reload(SourceList(["b"])), ["notice reloaded +0 -1 =1"]),
        at(20, .timer, ["renew a", "wake @600 +40s"]),
        at(21, ended("a"), ["wake @600", "notice idle @600 b ttl"]),
        at(22, ended("a"), []),
      ]),
    Case(
      name: "every due source: pulls in flight and being recorded are followed by name",
      configuration: everyDue(slots: 1), names: [],
      steps: [
        at(0, .start, ["claimDue 2"]),
        at(
          0, .claimed([.granted(state("x")), .granted(state("y"))], holds: [:]),
          ["start x", "wake +20s"]),
        at(1, .transferEnded(source: "x", hostHold: nil), ["start y", "claimDue 1"]),
        at(20, .timer, ["renew y,x"]),
        at(21, .transferEnded(source: "y", hostHold: nil), []),
        at(22, ended("x"), []),
        at(22, ended("x"), []),
        at(23, ended("y"), []),
        at(24, .claimed([], holds: [:]), ["wake none", "finish"]),
      ]),
    Case(
      name: "a stopped watch cancels what runs, gives back what waits, and writes no more ends",
      configuration: watch(slots: 1), names: ["a", "b"],
      steps: [
        at(0, .start, ["claim a,b due limit 2"]),
        at(0, granted("a", "b"), ["start a", "wake +20s"]),
        at(1, .stop, ["cancel", "release b"]),
        at(2, ended("a"), ["wake none", "finish"]),
      ]),
    Case(
      name: "a consumer that is behind holds starts back until it has caught up",
      configuration: watch(slots: 2), names: ["a", "b"],
      steps: [
        at(0, .start, ["claim a,b due limit 4"]),
        at(0, granted("a", "b"), ["start a", "start b", "wake +20s"]),
        at(0, .startRefused(state("b")), []),
        at(1, .resumed, ["start b"]),
      ]),
    Case(
      name: "a failed output stops a pass without another end",
      configuration: pass(slots: 1), names: ["a", "b", "c"],
      steps: [
        at(0, .start, ["claim a,b all limit 2"]),
        at(0, granted("a", "b"), ["start a", "wake +20s"]),
        at(1, .outputFailed, ["cancel", "release b"]),
        at(2, ended("a"), ["wake none", "finish"]),
      ]),
    Case(
      name: "a watch of every due source sleeps until the store's next claimable moment",
      configuration: everyDue(slots: 1, watch: true),
      steps: [
        at(0, .start, ["claimDue 2"]),
        at(0, .claimed([], holds: [:]), ["ask next claimable"]),
        at(0, .nextClaimable(moment(120)), ["wake @120", "notice idle @120 store"]),
        at(120, .timer, ["claimDue 2"]),
        at(120, granted("x"), ["start x", "ask next claimable"]),
        at(120, .nextClaimable(moment(3600)), ["wake @420 +140s"]),
        at(121, ended("x"), ["ask next claimable"]),
        at(121, .nextClaimable(nil), ["wake @421", "notice idle @421 store"]),
      ]),
  ]

  @Test(arguments: cases) func table(_ row: Case) {
    var scheduler = PullScheduler(row.configuration, names: SourceList(row.names))
    for (index, step) in row.steps.enumerated() {
      let elapsed = Duration.milliseconds(Int64(step.at * 1000))
      let clock = Duration.seconds(Self.base) + (row.fixedClock ? .zero : elapsed)
      let actions = scheduler.handle(step.event, at: SchedulerTime(clock: clock, elapsed: elapsed))
      #expect(
        actions.map { Self.describe($0, elapsed: elapsed) } == step.expected,
        "step \(index + 1) at \(step.at) s")
    }
  }

  /// A long pass whose claims come before the waiting sources run out (claims of 32, eight
  /// slots): every source starts once, and the scheduler keeps fewer than two windows of
  /// states, not every state it was granted (it kept all 2,000 here before it compacted).
  @Test func aLongPassKeepsAWindowOfStatesNotThePass() {
    let names = (0..<2_000).map { "http://s\($0).example/feed" }
    var scheduler = PullScheduler(
      Self.pass(slots: 8, claimAtLeast: 32), names: SourceList(names))
    var started: [String] = []
    var ending: [String] = []
    var finished = false
    var mostKept = 0
    var step = 0
    var event = SchedulerEvent.start
    while !finished, step < 100_000 {
      step += 1
      let time = SchedulerTime(clock: Self.moment(0), elapsed: .milliseconds(step))
      var answers: [SchedulerEvent] = []
      for action in scheduler.handle(event, at: time) {
        switch action {
        case .claim(let asked, _, let limit):
          answers.append(.claimed(asked.prefix(limit).map { .granted(Self.state($0)) }, holds: [:]))
        case .start(let planned):
          started.append(planned.state.source)
          ending.append(planned.state.source)
        case .finish:
          finished = true
        default:
          break
        }
      }
      mostKept = max(mostKept, scheduler.statesKept)
      if let answer = answers.first {
        event = answer
      } else if !ending.isEmpty {
        event = Self.ended(ending.removeFirst())
      } else {
        break
      }
    }
    #expect(finished)
    #expect(started.count == names.count)
    #expect(Set(started).count == names.count)
    #expect(mostKept < 128, "states kept at most: \(mostKept)")
  }

  /// An action as a row writes it: moments on the schedule's clock as `@seconds` since the
  /// row's start, pauses on the elapsed time as `+seconds`.
  static func describe(_ action: SchedulerAction, elapsed: Duration) -> String {
    func seconds(_ moment: Duration) -> String { "\((moment - .seconds(base)).wholeSeconds)" }
    func pause(_ moment: Duration) -> String {
      let value = Double(moment.components.seconds) + Double(moment.components.attoseconds) / 1e18
      return value == value.rounded() ? "\(Int(value))s" : "\(value)s"
    }
    switch action {
    case .claim(let names, let dueOnly, let limit):
      return "claim \(names.joined(separator: ",")) \(dueOnly ? "due" : "all") limit \(limit)"
    case .claimDue(let limit): return "claimDue \(limit)"
    case .askNextClaimable: return "ask next claimable"
    case .start(let planned):
      return "start \(planned.state.source)" + (planned.unconditional ? " unconditional" : "")
    case .skip(let skipped):
      var text = "skip \(skipped.source) "
      switch skipped.why {
      case .notDue: text += "not_due"
      case .inProgress: text += "in_progress"
      case .gone: text += "gone"
      case .held(let host): text += "held \(host)"
      case .cancelled: text += "cancelled"
      }
      if let next = skipped.nextCheckAt { text += " @\(seconds(next))" }
      if let reason = skipped.reason { text += " \(reason.rawValue)" }
      return text
    case .postpone(let source, let until, let reason):
      return "postpone \(source) @\(seconds(until)) \(reason.rawValue)"
    case .release(let names): return "release \(names.joined(separator: ","))"
    case .renewLeases(let names): return "renew \(names.joined(separator: ","))"
    case .cancelPulls: return "cancel"
    case .wake(let moment):
      guard let moment else { return "wake none" }
      var parts: [String] = []
      if let clock = moment.clock { parts.append("@\(seconds(clock))") }
      if let pauseEnd = moment.elapsed { parts.append("+\(pause(pauseEnd))") }
      return "wake " + parts.joined(separator: " ")
    case .notice(let notice):
      switch notice {
      case .notDue(let source, let until, _): return "notice not due \(source) @\(seconds(until))"
      case .idle(let until, let cause):
        let when = until.map { "@\(seconds($0))" } ?? "never"
        switch cause {
        case .check(let source, let reason):
          return "notice idle \(when) \(source) \(reason?.rawValue ?? "-")"
        case .leaseEnds(let source): return "notice idle \(when) lease \(source)"
        case .storeCheck: return "notice idle \(when) store"
        case .leaseRenewal: return "notice idle \(when) renewal"
        case .storeRetry: return "notice idle \(when) retry"
        case .nothing: return "notice idle \(when) nothing"
        }
      case .reloaded(let added, let removed, let count):
        return "notice reloaded +\(added) -\(removed) =\(count)"
      case .storeFailed(let error): return "notice store failed: \(error.message)"
      case .storeBack: return "notice store back"
      case .recordFailed(let error): return "notice record failed: \(error.message)"
      }
    case .finish(let error): return error.map { "finish \($0.message)" } ?? "finish"
    }
  }
}
