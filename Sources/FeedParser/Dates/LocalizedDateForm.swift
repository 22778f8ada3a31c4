/// Date forms in other languages that feedparser reads (`_parse_date_greek`,
/// `_parse_date_hungarian`, `_parse_date_nate`, `_parse_date_onblog`), seen in Greek,
/// Hungarian and Korean blog software of the 2000s. Each is rewritten into a form the ASCII
/// scanners read. Only text with non-ASCII characters comes here, so English dates never pay.
enum LocalizedDateForm {
  /// Greek weekday and month abbreviations → English, for an otherwise RFC 822 date
  /// (`Κυρ, 11 Ιούλ 2004 12:00:00 EST`).
  static let greekWords: [(String, String)] = [
    ("Κυρ", "Sun"), ("Δευ", "Mon"), ("Τρι", "Tue"), ("Τετ", "Wed"), ("Πεμ", "Thu"), ("Παρ", "Fri"),
    ("Σαβ", "Sat"), ("Ιαν", "Jan"), ("Φεβ", "Feb"), ("Μάώ", "Mar"), ("Μαρ", "Mar"), ("Μάρ", "Mar"),
    ("Απρ", "Apr"), ("Μάι", "May"), ("Μαϊ", "May"), ("Μαι", "May"), ("Ιούν", "Jun"), ("Ιον", "Jun"),
    ("Ιούλ", "Jul"), ("Ιολ", "Jul"), ("Αύγ", "Aug"), ("Αυγ", "Aug"), ("Σεπ", "Sep"), ("Οκτ", "Oct"),
    ("Νοέ", "Nov"), ("Νοε", "Nov"), ("Δεκ", "Dec"),
  ]

  /// Hungarian month names → their numbers, for a W3C-DTF-like date with the month spelled
  /// out (`2004-július-13T9:15-05:00`).
  static let hungarianMonths: [(String, String)] = [
    ("január", "01"), ("február", "02"), ("március", "03"), ("április", "04"), ("május", "05"),
    ("június", "06"), ("július", "07"), ("augusztus", "08"), ("szeptember", "09"),
    ("október", "10"), ("november", "11"), ("december", "12"),
  ]

  /// Korean sites give local time without a zone; it is Korea Standard Time.
  private static let koreaOffsetMinutes: Int64 = 9 * 60

  static func parse(_ text: String) -> CivilTime.Fields? {
    if let fields = parseKorean(text) { return fields }
    for (words, parser) in [(greekWords, rfc822), (hungarianMonths, iso8601)] {
      var rewritten = text
      for (word, replacement) in words where rewritten.contains(word) {
        rewritten = rewritten.replacingAll(word, with: replacement)
      }
      if rewritten != text, let fields = parser(rewritten) { return fields }
    }
    return nil
  }

  /// OnBlog's `2004년 05월 28일  01:31:15` and Nate's `2004-05-25 오후 11:23:17` (오전 is
  /// a.m., 오후 p.m.): six numbers in order, in Korea Standard Time.
  private static func parseKorean(_ text: String) -> CivilTime.Fields? {
    let isOnBlog = text.contains("년") && text.contains("월") && text.contains("일")
    let isMorning = text.contains("오전")
    let isAfternoon = text.contains("오후")
    guard isOnBlog || isMorning || isAfternoon else { return nil }
    let numbers = text.split { !$0.isASCII || !$0.isNumber }.compactMap { Int64($0) }
    guard numbers.count == 6 else { return nil }
    var fields = CivilTime.Fields(
      year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4],
      second: numbers[5], offsetMinutes: koreaOffsetMinutes)
    if isMorning || isAfternoon {
      guard (1...12).contains(fields.hour) else { return nil }
      fields.hour = fields.hour % 12 + (isAfternoon ? 12 : 0)
    }
    return fields
  }

  private static func rfc822(_ text: String) -> CivilTime.Fields? {
    RFC822DateForm.parse(FeedDateParser.normalizedBytes(text)[...])
  }

  /// The Hungarian form writes one-digit hours (`T9:15`); they are padded for the ISO scanner.
  private static func iso8601(_ text: String) -> CivilTime.Fields? {
    var bytes = FeedDateParser.normalizedBytes(text)
    if let t = bytes.firstIndex(of: UInt8(ascii: "t")), t + 2 < bytes.count,
      bytes[t + 2] == UInt8(ascii: ":")
    {
      bytes.insert(UInt8(ascii: "0"), at: t + 1)
    }
    return ISO8601DateForm.parse(bytes[...])
  }
}

extension String {
  fileprivate func replacingAll(_ word: String, with replacement: String) -> String {
    let characters = Array(self)
    let wordCharacters = Array(word)
    var result = ""
    var index = 0
    while index < characters.count {
      let end = index + wordCharacters.count
      if end <= characters.count && characters[index..<end].elementsEqual(wordCharacters) {
        result += replacement
        index = end
      } else {
        result.append(characters[index])
        index += 1
      }
    }
    return result
  }
}
