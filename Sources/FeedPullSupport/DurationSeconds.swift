/// `Duration` as the layers above need it, read by one division of its 128-bit count: whole
/// seconds for stores and records, a `Double` for timers and curl's options.
extension Duration {
  /// Whole seconds, rounded down (for a moment: whole seconds since 1970, as stores keep it).
  ///
  /// One division of the 128-bit count of attoseconds: `components` cost about 300
  /// instructions, and a `--due` pass over a million names read this twice a name (the
  /// schedule's `popDue` and each skipped `end`'s `next_check_at`; callgrind). Clamped, not
  /// trapping, beyond `Int64`'s seconds (some 292 billion years).
  public var wholeSeconds: Int64 {
    let (seconds, rest) = secondsAndAttoseconds
    return Int64(clamping: rest < 0 ? seconds - 1 : seconds)
  }

  /// This duration cut to whole seconds (rounded down).
  public var inWholeSeconds: Duration { .seconds(wholeSeconds) }

  /// As a `Double` of seconds (for a database's `double precision`, dispatch's timers, Foundation's
  /// `Date` and curl's millisecond options).
  public var inSeconds: Double {
    let (seconds, rest) = secondsAndAttoseconds
    // Through Int64: `Double` made from an `Int128` takes a generic path of some 1,200
    // instructions (callgrind). The attoseconds left are under 10^18; seconds beyond `Int64`
    // (some 292 billion years) are clamped.
    return Double(Int64(clamping: seconds)) + Double(Int64(rest)) / 1e18
  }

  /// The seconds (towards zero) and the attoseconds left, by one 128-bit division.
  private var secondsAndAttoseconds: (Int128, Int128) {
    attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
  }
}
