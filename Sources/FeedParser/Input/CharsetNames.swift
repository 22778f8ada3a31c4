/// Character encoding names as feeds and servers spell them, reduced to the lower-case IANA name
/// the output reports (`utf-8`, `shift_jis`, `iso-8859-1`) and libxml2/iconv accept.
enum CharsetNames {
  /// The families whose byte order the bytes, not the name, decide.
  enum Family { case utf16, utf32 }

  private static let aliases: [String: String] = [
    "utf8": "utf-8", "unicode-1-1-utf-8": "utf-8",
    "latin1": "iso-8859-1", "latin-1": "iso-8859-1", "l1": "iso-8859-1",
    "iso8859-1": "iso-8859-1", "iso_8859-1": "iso-8859-1", "iso-8859-1:1987": "iso-8859-1",
    "cp819": "iso-8859-1", "ibm819": "iso-8859-1", "csisolatin1": "iso-8859-1",
    "cp1252": "windows-1252", "x-cp1252": "windows-1252", "win-1252": "windows-1252",
    "sjis": "shift_jis", "shift-jis": "shift_jis", "x-sjis": "shift_jis",
    "ms_kanji": "shift_jis", "csshiftjis": "shift_jis",
    "euc_jp": "euc-jp", "eucjp": "euc-jp", "x-euc-jp": "euc-jp",
    "ascii": "us-ascii", "us_ascii": "us-ascii", "ansi_x3.4-1968": "us-ascii",
    "euc_kr": "euc-kr", "euckr": "euc-kr", "ks_c_5601-1987": "euc-kr",
    "big-5": "big5", "cn-big5": "big5", "x-x-big5": "big5",
    "gb_2312-80": "gb2312", "iso-2022-jp-1": "iso-2022-jp",
    // EBCDIC code pages under the names Python accepts (feedparser's corpus uses them).
    "037": "ibm037", "cp037": "ibm037", "csibm037": "ibm037", "ibm039": "ibm037",
    "ebcdic-cp-us": "ibm037", "ebcdic-cp-ca": "ibm037", "ebcdic-cp-wt": "ibm037",
    "ebcdic-cp-nl": "ibm037", "ebcdic_cp_us": "ibm037", "ebcdic_cp_ca": "ibm037",
    "ebcdic_cp_wt": "ibm037", "ebcdic_cp_nl": "ibm037",
    "500": "ibm500", "cp500": "ibm500", "csibm500": "ibm500", "ebcdic-cp-be": "ibm500",
    "ebcdic-cp-ch": "ibm500", "ebcdic_cp_be": "ibm500", "ebcdic_cp_ch": "ibm500",
    "cp875": "ibm875", "cp1140": "ibm1140",
    // IBM PC code pages under Python's names that iconv spells otherwise.
    "cp_is": "cp861", "csibm861": "cp861",
    // Mac code pages under Python's names, as iconv spells them.
    "maclatin2": "mac-centraleurope", "maccentraleurope": "mac-centraleurope",
    "maciceland": "mac-is", "macroman": "macintosh", "maccyrillic": "mac-cyrillic",
    // Mac code pages iconv lacks, decoded by table (`SingleByteCharsets`).
    "macgreek": "mac-greek", "mac_greek": "mac-greek", "x-mac-greek": "mac-greek",
    "macturkish": "mac-turkish", "mac_turkish": "mac-turkish", "x-mac-turkish": "mac-turkish",
    // Windows' "ANSI code page" alias, windows-1252 in the West.
    "dbcs": "windows-1252", "mbcs": "windows-1252",
  ]

  private static let families: [String: Family] = [
    "utf-16": .utf16, "utf16": .utf16, "ucs-2": .utf16, "ucs2": .utf16,
    "iso-10646-ucs-2": .utf16, "csunicode": .utf16, "unicode": .utf16,
    "utf-16le": .utf16, "utf-16be": .utf16,
    "utf-32": .utf32, "utf32": .utf32, "ucs-4": .utf32, "ucs4": .utf32,
    "iso-10646-ucs-4": .utf32, "csucs4": .utf32, "utf-32le": .utf32, "utf-32be": .utf32,
  ]

  /// The canonical name, or nil for an empty name.
  static func canonical(_ name: String) -> String? {
    var lowered = name.lowercased().trimmingSpaces()
    while let first = lowered.first, first == "\"" || first == "'" { lowered.removeFirst() }
    while let last = lowered.last, last == "\"" || last == "'" { lowered.removeLast() }
    guard !lowered.isEmpty else { return nil }
    return aliases[lowered] ?? lowered
  }

  /// What to decode a (canonical) name with. Feeds that say Shift_JIS, EUC-JP, EUC-KR, GB2312
  /// or Big5 are written by Windows and Mac software with those vendors' extensions (circled
  /// digits ① = 0x8740 in Shift_JIS, which strict iconv rejects, stopping libxml2 at the first
  /// one); the WHATWG Encoding Standard decodes these labels with the supersets too.
  static func decoder(for name: String) -> String {
    switch name {
    case "shift_jis": return "cp932"
    case "euc-jp": return "euc-jp-ms"
    case "euc-kr": return "cp949"
    case "gb2312", "gbk": return "gb18030"
    case "big5": return "big5-hkscs"
    default: return name
    }
  }

  /// The UTF-16 or UTF-32 family a (canonical) name belongs to, if any.
  static func family(_ name: String) -> Family? { families[name] }
}
