/// One option of `feedpull`, declared once: its names, how its value is written, its default,
/// its help line, the subcommands that take it, and what it sets. The parser, `--help`, the man
/// page and the check of docs/format.md all read these rows (`OptionTable`), as curl's
/// `tool_getparam.c` keeps one row per option.
struct OptionRow: Sendable {
  /// How the value is written, for the help and for a bad value's message.
  enum Syntax: Sendable, Equatable {
    /// No value: the option is a switch.
    case flag
    /// The one time syntax (`ValueSyntax.duration`).
    case duration
    /// The one size syntax (`ValueSyntax.size`).
    case size
    /// A whole number.
    case count
    /// One of a few words.
    case choice([String])
    /// Any text, shown as the placeholder (`FILE`, `PATH`, `S`).
    case text
  }

  /// `--timeout`.
  var long: String
  /// `-j`, when the option has a short name.
  var short: String?
  var syntax: Syntax
  /// The value as the help writes it: `DURATION`, `N`, `FILE`, `text|jsonl`.
  var placeholder: String
  /// The default as the help writes it (`30s`), or nil when there is none to show.
  var defaultText: String?
  /// A good value, shown when a bad one is given.
  var example: String
  /// One short line for `--help` (the default is added after it).
  var help: String
  /// The full meaning, for the man page and docs/format.md.
  var meaning: String
  /// The subcommands that take it.
  var commands: Set<Subcommand>
  /// May be given more than once (each adds a value); otherwise the last one counts.
  var repeatable = false
  /// Sets the parsed value; throws a usage error for a bad one.
  var apply: @Sendable (inout CommandLineOptions, String) throws(UsageError) -> Void

  /// True when the option needs a value.
  var takesValue: Bool { syntax != .flag }

  /// `-j, --jobs N` or `    --timeout DURATION`: how the help and the docs name it.
  var synopsis: String {
    let names = (short.map { "\($0), " } ?? "") + long
    return takesValue ? "\(names) \(placeholder)" : names
  }

  /// The message of a usage error for `text`, a bad value of this option.
  func badValue(_ text: String, _ why: String) -> UsageError {
    UsageError(message: "\(long) \(why), not \"\(text)\"; for example: \(long) \(example)")
  }
}

/// A usage error: printed on stderr with `Try 'feedpull --help'.`, exit status 2, nothing on
/// stdout, and no source pulled.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, for a person.
  public var message: String
  /// The right way to write it, when the parser can tell (a subcommand after options).
  public var suggestion: String?

  init(message: String, suggestion: String? = nil) {
    self.message = message
    self.suggestion = suggestion
  }

  /// The message.
  public var description: String { message }
}

extension OptionRow {
  typealias Setter<Value> = @Sendable (inout CommandLineOptions, Value) -> Void

  /// A switch: `--due`.
  static func flag(
    _ long: String, _ short: String? = nil, for commands: Set<Subcommand>, help: String,
    meaning: String? = nil, set: @escaping @Sendable (inout CommandLineOptions) -> Void
  ) -> OptionRow {
    OptionRow(
      long: long, short: short, syntax: .flag, placeholder: "", defaultText: nil, example: long,
      help: help, meaning: meaning ?? help, commands: commands
    ) { options, _ throws(UsageError) in set(&options) }
  }

  /// A time in the one syntax, at least `minimum` (zero allowed only when `minimum` is zero).
  static func duration(
    _ long: String, default defaultValue: Duration?, example: String, minimum: Duration = .zero,
    maximum: Duration = .seconds(365 * 86_400), for commands: Set<Subcommand>, help: String,
    meaning: String? = nil, set: @escaping Setter<Duration>
  ) -> OptionRow {
    var row = OptionRow(
      long: long, short: nil, syntax: .duration, placeholder: "DURATION",
      defaultText: defaultValue.map(ValueSyntax.text(of:)), example: example, help: help,
      meaning: meaning ?? help, commands: commands, apply: { _, _ throws(UsageError) in })
    let checked = row
    row.apply = { options, text throws(UsageError) in
      guard let value = ValueSyntax.duration(text) else {
        throw checked.badValue(text, "needs a time: seconds, or a number with ms, s, m, h or d")
      }
      let least = minimum == .zero ? "0s or more" : "more than 0s"
      guard minimum == .zero ? value >= .zero : value > .zero, value >= minimum else {
        throw checked.badValue(text, "needs \(least)")
      }
      guard value <= maximum else {
        throw checked.badValue(text, "needs at most \(ValueSyntax.text(of: maximum))")
      }
      set(&options, value)
    }
    return row
  }

  /// A byte count in the one size syntax.
  static func size(
    _ long: String, default defaultText: String?, example: String,
    for commands: Set<Subcommand>, help: String, meaning: String? = nil,
    set: @escaping Setter<Int64>
  ) -> OptionRow {
    var row = OptionRow(
      long: long, short: nil, syntax: .size, placeholder: "SIZE", defaultText: defaultText,
      example: example, help: help, meaning: meaning ?? help, commands: commands,
      apply: { _, _ throws(UsageError) in })
    let checked = row
    row.apply = { options, text throws(UsageError) in
      guard let value = ValueSyntax.size(text) else {
        throw checked.badValue(
          text, "needs a size: bytes, or a number with K, M, G or KiB, MiB, GiB")
      }
      set(&options, value)
    }
    return row
  }

  /// A whole number from `minimum` to a million.
  static func count(
    _ long: String, _ short: String? = nil, default defaultValue: Int, minimum: Int,
    for commands: Set<Subcommand>, help: String, meaning: String? = nil,
    set: @escaping Setter<Int>
  ) -> OptionRow {
    var row = OptionRow(
      long: long, short: short, syntax: .count, placeholder: "N",
      defaultText: String(defaultValue), example: String(max(defaultValue, minimum)),
      help: help, meaning: meaning ?? help, commands: commands,
      apply: { _, _ throws(UsageError) in })
    let checked = row
    row.apply = { options, text throws(UsageError) in
      guard let value = Int(text), value >= minimum, value <= 1_000_000 else {
        throw checked.badValue(text, "needs a whole number from \(minimum) to 1000000")
      }
      set(&options, value)
    }
    return row
  }

  /// One of `choices`.
  static func choice(
    _ long: String, _ short: String? = nil, _ choices: [String], default defaultText: String?,
    for commands: Set<Subcommand>, help: String, meaning: String? = nil,
    set: @escaping Setter<String>
  ) -> OptionRow {
    var row = OptionRow(
      long: long, short: short, syntax: .choice(choices),
      placeholder: choices.joined(separator: "|"), defaultText: defaultText,
      example: choices.first ?? "", help: help, meaning: meaning ?? help, commands: commands,
      apply: { _, _ throws(UsageError) in })
    let checked = row
    row.apply = { options, text throws(UsageError) in
      guard choices.contains(text) else {
        throw checked.badValue(text, "needs one of \(choices.joined(separator: ", "))")
      }
      set(&options, text)
    }
    return row
  }

  /// A file or directory (`placeholder` names which): never empty, since `--state ""` is a slip
  /// that would otherwise mean the working directory or no file at all.
  static func path(
    _ long: String, _ short: String? = nil, placeholder: String, example: String,
    for commands: Set<Subcommand>, help: String, meaning: String? = nil,
    set: @escaping Setter<String>
  ) -> OptionRow {
    text(
      long, short, placeholder: placeholder, example: example, for: commands, help: help,
      meaning: meaning
    ) { options, path throws(UsageError) in
      guard !path.isEmpty else {
        throw UsageError(message: "\(long) needs a \(placeholder), not \"\"")
      }
      set(&options, path)
    }
  }

  /// Free text (a path, a header value), checked by `set` when it has rules of its own.
  static func text(
    _ long: String, _ short: String? = nil, placeholder: String, default defaultText: String? = nil,
    example: String, repeatable: Bool = false, for commands: Set<Subcommand>, help: String,
    meaning: String? = nil,
    set: @escaping @Sendable (inout CommandLineOptions, String) throws(UsageError) -> Void
  ) -> OptionRow {
    OptionRow(
      long: long, short: short, syntax: .text, placeholder: placeholder, defaultText: defaultText,
      example: example, help: help, meaning: meaning ?? help, commands: commands,
      repeatable: repeatable, apply: set)
  }
}
