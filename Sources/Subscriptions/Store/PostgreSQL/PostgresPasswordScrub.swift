import FeedPullSupport

/// Keeps a PostgreSQL password out of every message: the one in a URI's user information
/// (`postgresql://user:secret@host/db`), a `password=` parameter of a URI
/// (`…/db?password=secret`) and a `password=` keyword of a `key=value` string. libpq's own
/// messages may quote parts of the connection string (an invalid percent-encoding, say), so
/// they are scrubbed too. The docs point at `PGPASSFILE` and `PGPASSWORD`, which keep the
/// password out of the command line altogether.
struct PostgresPasswordScrub {
  /// Every spelling of the password the connection string carries (as written and
  /// percent-decoded), longest first.
  private let secrets: [String]

  init(connectionString: String) {
    var found: [String] = []
    if let scheme = connectionString.range(of: "://") {
      let rest = connectionString[scheme.upperBound...]
      let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      if let at = rest[..<authorityEnd].lastIndex(of: "@"),
        let colon = rest[..<at].firstIndex(of: ":")
      {
        found.append(String(rest[rest.index(after: colon)..<at]))
      }
      if let query = rest.firstIndex(of: "?") {
        for parameter in rest[rest.index(after: query)...].split(separator: "&") {
          let parts = parameter.split(separator: "=", maxSplits: 1)
          if parts.count == 2, parts[0] == "password" { found.append(String(parts[1])) }
        }
      }
    } else {
      found += Self.keywordValues(named: "password", in: connectionString)
    }
    let spelled = found.filter { !$0.isEmpty }.flatMap { [$0, PercentDecoding.decoded($0)] }
    secrets = Array(Set(spelled)).sorted { $0.count > $1.count }
  }

  /// The connection string for a message: the URI's password taken out with its colon
  /// (`user@host`), a `password` parameter or keyword shown as `***`.
  func redacted(_ connectionString: String) -> String {
    var text = connectionString
    if let scheme = text.range(of: "://") {
      let rest = text[scheme.upperBound...]
      let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      if let at = rest[..<authorityEnd].lastIndex(of: "@"),
        let colon = rest[..<at].firstIndex(of: ":")
      {
        text = String(text[..<colon]) + String(text[at...])
      }
    }
    return scrubbed(text)
  }

  /// `message` with every spelling of the password replaced by `***`.
  func scrubbed(_ message: String) -> String {
    secrets.reduce(message) { text, secret in text.replacing(secret, with: "***") }
  }

  /// The values of `name = value` pairs in a libpq keyword string (a value may be quoted with
  /// `'`, and `\` escapes within it).
  private static func keywordValues(named name: String, in text: String) -> [String] {
    var values: [String] = []
    var rest = Substring(text)
    while let range = rest.range(of: name) {
      var after = rest[range.upperBound...].drop { $0 == " " }
      rest = rest[range.upperBound...]
      guard after.first == "=" else { continue }
      after = after.dropFirst().drop { $0 == " " }
      var value = ""
      if after.first == "'" {
        // Both spellings: as written between the quotes, and with its escapes undone.
        var written = ""
        var escaped = false
        for character in after.dropFirst() {
          if escaped {
            value.append(character)
            written.append(character)
            escaped = false
          } else if character == "\\" {
            escaped = true
            written.append(character)
          } else if character == "'" {
            break
          } else {
            value.append(character)
            written.append(character)
          }
        }
        values.append(written)
      } else {
        value = String(after.prefix { !$0.isWhitespace })
      }
      values.append(value)
    }
    return values
  }
}
