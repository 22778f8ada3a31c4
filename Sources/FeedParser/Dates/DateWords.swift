/// The words dates in feeds are written with: month and weekday names and time-zone names.
/// Tables, so a new zone seen in the wild is a new row. All keys are lower case ASCII.
enum DateWords {
  /// Month names in full; a feed may write any prefix of three letters or more (`Nov`, `Sept`,
  /// `November`), in any case, with or without a trailing dot.
  static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
  ]

  /// Weekday names; they are skipped and never checked, because feeds get them wrong
  /// (feedparser ignores them too).
  static let weekdays = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]

  /// Time-zone names to minutes east of UTC. RFC 822 §5 gives UT, GMT, Z, the North American
  /// zones and the military letters (with RFC 822's signs, A = -1 h, as feedparser reads them).
  /// The rest are abbreviations real feeds print: Japanese and Korean blog software writes JST
  /// and KST, European CMSs CET/CEST/BST, Australian ones AEST. IST is read as India
  /// (+05:30), the usual meaning in English-language feeds. Names not in the table read as UTC,
  /// as in feedparser.
  static let zones: [String: Int64] = {
    var zones: [String: Int64] = [
      "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0, "uct": 0,
      "edt": -4 * 60, "est": -5 * 60, "cdt": -5 * 60, "cst": -6 * 60,
      "mdt": -6 * 60, "mst": -7 * 60, "pdt": -7 * 60, "pst": -8 * 60,
      "et": -5 * 60, "ct": -6 * 60, "mt": -7 * 60, "pt": -8 * 60,
      "adt": -3 * 60, "ast": -4 * 60, "at": -4 * 60,
      "akdt": -8 * 60, "akst": -9 * 60, "hst": -10 * 60, "hdt": -9 * 60,
      "ndt": -150, "nst": -210, "brt": -3 * 60, "art": -3 * 60,
      "bst": 60, "ist": 330, "west": 60, "cet": 60, "met": 60, "mez": 60,
      "cest": 120, "mest": 120, "mesz": 120, "eet": 120, "eest": 180, "msk": 180,
      "pkt": 300, "ict": 420, "wib": 420, "hkt": 480, "sgt": 480, "pht": 480, "awst": 480,
      "jst": 540, "kst": 540, "acst": 570, "acdt": 630, "aest": 600, "aedt": 660,
      "nzst": 720, "nzdt": 780,
    ]
    // Military letters: A–I and K–M are 1 to 12 hours west, N–Y 1 to 12 hours east (RFC 822 §5).
    let west = Array("abcdefghiklm")
    let east = Array("nopqrstuvwxy")
    for hours in 1...12 {
      zones[String(west[hours - 1])] = Int64(-hours * 60)
      zones[String(east[hours - 1])] = Int64(hours * 60)
    }
    return zones
  }()

  /// The 1-based month a word names, or nil.
  static func month(_ word: ArraySlice<UInt8>) -> Int64? {
    index(of: word, in: months).map { Int64($0 + 1) }
  }

  static func isWeekday(_ word: ArraySlice<UInt8>) -> Bool {
    index(of: word, in: weekdays) != nil
  }

  /// Finds the name that `word` (lower case, optionally ending in a dot) is a prefix of, with at
  /// least three letters.
  private static func index(of word: ArraySlice<UInt8>, in names: [String]) -> Int? {
    var letters = word
    if letters.last == UInt8(ascii: ".") { letters = letters.dropLast() }
    guard letters.count >= 3 else { return nil }
    return names.firstIndex { name in
      let utf8 = name.utf8
      return letters.count <= utf8.count && zip(letters, utf8).allSatisfy { $0 == $1 }
    }
  }
}
