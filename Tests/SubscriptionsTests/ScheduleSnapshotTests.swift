import Testing

@testable import Subscriptions

/// Claims over a long list answered from one scan of a SQLite state (`ScheduleSnapshot`) give
/// the answers the store's own claims give, in the same order, and a second look at a source
/// asks the store.
@Suite struct ScheduleSnapshotTests {
  static let now: Duration = .seconds(1_796_126_400)
  static let count = ScheduleSnapshot.minimumSources + 200

  static func name(_ index: Int) -> String { "https://host\(index % 97).example/feed/\(index)" }

  /// A state in which source i is unknown (i % 7 == 0), due (1), leased by another process
  /// (2), or not due until `now` + i seconds, with a reason (the rest); the list names every
  /// source once and source 5 twice.
  static func makeState() throws -> (path: String, names: [String]) {
    let path = TemporaryState.path()
    let store = try SQLiteSubscriptionStore(path: path)
    let names = (0..<count).map(name)
    var outcomes: [PullOutcome] = []
    for (index, source) in names.enumerated() where index % 7 != 0 {
      var state = SubscriptionState(source: source)
      state.nextCheckAt = index % 7 == 1 ? now - .seconds(60) : now + .seconds(index)
      state.nextCheckReason = index % 2 == 0 ? .ttl : nil
      outcomes.append(
        PullOutcome(state: state, seenItems: [], sawWholeFeed: false, hostHold: nil, now: now))
    }
    try store.record(outcomes)
    let other = try SQLiteSubscriptionStore(path: path)
    let leased = names.indices.filter { $0 % 7 == 2 }.map { names[$0] }
    _ = try other.claim(leased, at: now, dueOnly: false, grantLimit: leased.count)
    return (path, names + [names[5]])
  }

  /// Every name claimed as a run claims them: in order, a batch at a time, the next batch
  /// starting after the last source answered.
  static func claimAll(
    _ names: [String], _ claim: ([String]) throws(StoreError) -> [ClaimAnswer]
  ) throws -> [ClaimAnswer] {
    var answers: [ClaimAnswer] = []
    var next = 0
    while next < names.count {
      let batch = Array(names[next..<min(names.count, next + 1000)])
      let answered = try claim(batch)
      try #require(!answered.isEmpty)
      answers += answered
      next += answered.count
    }
    // A lease's end is read on the machine's clock when each claim runs.
    return answers.map { if case .leased = $0 { .leased(until: .zero) } else { $0 } }
  }

  /// Two copies of the state: one claimed directly, one through a snapshot of `order(names)`.
  static func twoStates(order: ([String]) -> [String] = { $0 }) throws -> (
    direct: SQLiteSubscriptionStore, scanned: SQLiteSubscriptionStore,
    snapshot: ScheduleSnapshot, names: [String]
  ) {
    let (directPath, listed) = try makeState()
    let (scannedPath, _) = try makeState()
    let names = order(listed)
    let scanned = try SQLiteSubscriptionStore(path: scannedPath)
    return (
      try SQLiteSubscriptionStore(path: directPath), scanned,
      ScheduleSnapshot(store: scanned, names: SourceList(names)), names
    )
  }

  @Test func answersWhatTheStoresOwnClaimsAnswer() throws {
    let (direct, scanned, snapshot, names) = try Self.twoStates()
    for grantLimit in [10_000, 40] {
      let expected = try Self.claimAll(names) { batch throws(StoreError) in
        try direct.claim(batch, at: Self.now, dueOnly: true, grantLimit: grantLimit)
      }
      let answers = try Self.claimAll(names) { batch throws(StoreError) in
        try snapshot.claim(batch, at: Self.now, dueOnly: true, grantLimit: grantLimit)
      }
      #expect(answers == expected)
      #expect(answers.count == names.count)
      #expect(answers[3] == .notDue(at: Self.now + .seconds(3), reason: nil))
      #expect(answers[4] == .notDue(at: Self.now + .seconds(4), reason: .ttl))
      try direct.releaseLeases(of: names)
      try scanned.releaseLeases(of: names)
    }
    // The first pass's not-due sources came from the scan; the second pass's from the store
    // (an entry is used once).
    #expect(snapshot.answeredFromScan == (0..<Self.count).filter { $0 % 7 >= 3 }.count)
  }

  /// A list in another order than the store's rows: the scan passes no claim's sources before
  /// it ends, so every claim but the first waits for its end, and the answers are the same.
  @Test func aListInAnotherOrderThanTheStoresIsAnsweredTheSame() throws {
    let (direct, _, snapshot, names) = try Self.twoStates { $0.reversed() }
    let expected = try Self.claimAll(names) { batch throws(StoreError) in
      try direct.claim(batch, at: Self.now, dueOnly: true, grantLimit: 10_000)
    }
    let answers = try Self.claimAll(names) { batch throws(StoreError) in
      try snapshot.claim(batch, at: Self.now, dueOnly: true, grantLimit: 10_000)
    }
    #expect(answers == expected)
    #expect(snapshot.answeredFromScan == (0..<Self.count).filter { $0 % 7 >= 3 }.count)
  }

  /// A scan stopped after the first claim (a run that stops) leaves every later claim to the
  /// store, with the store's answers; the store's own writes went on beside the scan.
  @Test func aStoppedScanLeavesTheClaimsToTheStore() throws {
    let (direct, _, snapshot, names) = try Self.twoStates()
    let first = try snapshot.claim(
      Array(names.prefix(100)), at: Self.now, dueOnly: true, grantLimit: 10_000)
    snapshot.stopScan()
    let fromScan = snapshot.answeredFromScan
    let rest = try Self.claimAll(Array(names.dropFirst(first.count))) {
      batch throws(StoreError) in
      try snapshot.claim(batch, at: Self.now, dueOnly: true, grantLimit: 10_000)
    }
    let expected = try Self.claimAll(names) { batch throws(StoreError) in
      try direct.claim(batch, at: Self.now, dueOnly: true, grantLimit: 10_000)
    }
    // A lease's end is read on the machine's clock when each claim runs.
    let firstAnswers: [ClaimAnswer] = first.map { answer in
      if case .leased = answer { .leased(until: .zero) } else { answer }
    }
    #expect(firstAnswers + rest == expected)
    #expect(snapshot.answeredFromScan == fromScan)
    #expect(fromScan <= 100)
  }

  /// A state of more than four times the list's sources is not scanned (the scan would read
  /// all of them for a few): the store answers every claim, as it would alone.
  @Test func aStateMuchLargerThanTheListIsNotScanned() throws {
    let store = try SQLiteSubscriptionStore(path: TemporaryState.path())
    let names = (0..<(5 * Self.count)).map(Self.name)
    try store.record(
      names.map { source in
        var state = SubscriptionState(source: source)
        state.nextCheckAt = Self.now + .seconds(3600)
        return PullOutcome(
          state: state, seenItems: [], sawWholeFeed: false, hostHold: nil, now: Self.now)
      })
    let listed = Array(names.prefix(Self.count))
    let snapshot = ScheduleSnapshot(store: store, names: SourceList(listed))
    let answers = try Self.claimAll(listed) { batch throws(StoreError) in
      try snapshot.claim(batch, at: Self.now, dueOnly: true, grantLimit: 10_000)
    }
    #expect(answers.count == listed.count)
    #expect(answers.allSatisfy { $0 == .notDue(at: Self.now + .seconds(3600), reason: nil) })
    #expect(snapshot.answeredFromScan == 0)
  }

  @Test func aSecondLookAtASourceAsksTheStore() throws {
    let (path, names) = try Self.makeState()
    let store = try SQLiteSubscriptionStore(path: path)
    let snapshot = ScheduleSnapshot(store: store, names: SourceList(names))
    _ = try Self.claimAll(names) { batch throws(StoreError) in
      try snapshot.claim(batch, at: Self.now, dueOnly: true, grantLimit: 10_000)
    }
    // Another process makes source 3 due, and moves source 4 to later.
    var due = SubscriptionState(source: names[3])
    due.nextCheckAt = Self.now - .seconds(1)
    var later = SubscriptionState(source: names[4])
    later.nextCheckAt = Self.now + .seconds(7200)
    let other = try SQLiteSubscriptionStore(path: path)
    try other.record(
      [due, later].map {
        PullOutcome(state: $0, seenItems: [], sawWholeFeed: false, hostHold: nil, now: Self.now)
      })
    let answers = try snapshot.claim(
      [names[3], names[4]], at: Self.now, dueOnly: true, grantLimit: 10)
    #expect(answers.count == 2)
    guard case .granted(let state) = answers.first else {
      Issue.record("source 3 not granted: \(answers)")
      return
    }
    #expect(state.source == names[3])
    #expect(answers.last == .notDue(at: Self.now + .seconds(7200), reason: nil))
  }

  @Test func aClaimOfEverySourceIsTheStoresOwn() throws {
    let (path, names) = try Self.makeState()
    let store = try SQLiteSubscriptionStore(path: path)
    let snapshot = ScheduleSnapshot(store: store, names: SourceList(names))
    // Not `dueOnly`: every free source is leased, due or not.
    let answers = try snapshot.claim(
      Array(names.prefix(14)), at: Self.now, dueOnly: false, grantLimit: 100)
    let granted = answers.filter { if case .granted = $0 { true } else { false } }
    #expect(answers.count == 14)
    #expect(granted.count == 12)
    #expect(snapshot.answeredFromScan == 0)
  }
}
