/// How a pull with subscription state behaves (`--due`, `--all`, `--force`, the intervals).
public struct SubscriptionPullOptions: Sendable {
  /// The clamps and defaults of the schedule (`--min-interval`, `--max-interval`).
  public var schedule = ScheduleOptions()
  /// `--due`: only sources whose next check has come (and sources new to the state).
  public var onlyDue = false
  /// `--all`: also write items already delivered, with `status: "seen"`.
  public var writesSeen = false
  /// `--force`: request sources that are gone or whose host asked to wait.
  public var force = false
  /// A source is pulled without validators when its last such pull is this old.
  public var unconditionalEvery: Duration = .seconds(86_400)
  /// How long item identities are remembered (pulls and age, whichever keeps more).
  public var retention = RetentionRule()
  /// The defaults of the command line: every source given, new and updated items only.
  public init() {}
}
