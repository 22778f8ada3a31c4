/// The one syntax of every time and every size on the command line, so that `--timeout 2m`,
/// `--host-delay 0s` and `--min-interval 1.5m` read alike, and `--max-bytes 1MiB` like `1M`.
/// Pure functions: the option table calls them, and the tests call them without a process.
enum ValueSyntax {
  /// A time: a number of seconds, fractions allowed (`0.5`), or a number with a unit: `ms`,
  /// `s`, `m`, `h`, `d` (`500ms`, `0s`, `1.5m`, `2h`, `1d`). Whole milliseconds; nil when the
  /// text is not one (a sign, a space, an unknown unit, no digits).
  static func duration(_ text: String) -> Duration? {
    guard let (number, unit) = split(text) else { return nil }
    let unitMilliseconds: Double
    switch unit {
    case "", "s": unitMilliseconds = 1000
    case "ms": unitMilliseconds = 1
    case "m": unitMilliseconds = 60_000
    case "h": unitMilliseconds = 3_600_000
    case "d": unitMilliseconds = 86_400_000
    default: return nil
    }
    let milliseconds = (number * unitMilliseconds).rounded()
    guard milliseconds.isFinite, milliseconds < 1e15 else { return nil }
    return .milliseconds(Int64(milliseconds))
  }

  /// A number of bytes, with an optional unit, 1024-based: `K`/`KiB`, `M`/`MiB`, `G`/`GiB`
  /// (either case), or `B`. Fractions are allowed with a unit (`1.5M`) and rounded to a byte.
  static func size(_ text: String) -> Int64? {
    guard let (number, unit) = split(text) else { return nil }
    let multiplier: Double
    switch unit.lowercased() {
    case "", "b": multiplier = 1
    case "k", "kib": multiplier = 1024
    case "m", "mib": multiplier = 1024 * 1024
    case "g", "gib": multiplier = 1024 * 1024 * 1024
    default: return nil
    }
    if unit.isEmpty && number.rounded() != number { return nil }
    let bytes = (number * multiplier).rounded()
    guard bytes.isFinite, bytes < 9e18 else { return nil }
    return Int64(bytes)
  }

  /// A duration as the help and the man page write a default: `30s`, `15m`, `1d`, `500ms`.
  static func text(of duration: Duration) -> String {
    let milliseconds =
      duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
    where milliseconds >= size && milliseconds % size == 0 {
      return "\(milliseconds / size)\(unit)"
    }
    return milliseconds == 0 ? "0s" : "\(milliseconds)ms"
  }

  /// A size as a default is written: `64M`, `512K`, `100`.
  static func text(of bytes: Int64) -> String {
    for (unit, size) in [("G", Int64(1) << 30), ("M", 1 << 20), ("K", 1 << 10)]
    where bytes >= size && bytes % size == 0 {
      return "\(bytes / size)\(unit)"
    }
    return "\(bytes)"
  }

  /// Digits with at most one decimal point, then letters: (`1.5`, `m`). Nil for anything else.
  private static func split(_ text: String) -> (Double, String)? {
    let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let unit = text[digits.endIndex...]
    guard digits.contains(where: \.isNumber), digits.filter({ $0 == "." }).count <= 1,
      unit.allSatisfy({ $0.isASCII && $0.isLetter }), let number = Double(digits)
    else { return nil }
    return (number, String(unit))
  }
}
