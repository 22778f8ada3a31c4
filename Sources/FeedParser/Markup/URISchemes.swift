/// Which URI schemes a link inside sanitized HTML may keep: feedparser's list (the web's, mail,
/// news, chat, file sharing and version control), never `javascript:`, `vbscript:` or `data:`.
/// A URI attribute with another scheme is kept empty (`href=""`), as feedparser keeps it.
enum URISchemes {
  /// True when `uri` has no scheme (a relative reference) or an acceptable one. The scheme is
  /// read the way a browser reads it: leading white space and C0 controls skipped, tab, LF
  /// and CR ignored anywhere (`java&#9;script:` is `javascript:`), any letter case.
  static func isAcceptable(_ uri: UnsafeBufferPointer<UInt8>) -> Bool {
    if hasPrefix(uri, "https://") || hasPrefix(uri, "http://") { return true }
    var scheme: [UInt8] = []
    var started = false
    var sawColon = false
    for byte in uri {
      if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
      if !started && byte <= 0x20 { continue }
      started = true
      if byte == UInt8(ascii: ":") {
        sawColon = true
        break
      }
      let isSchemeByte =
        byte.isASCIILetter
        || (!scheme.isEmpty
          && (byte.isASCIIAlphanumeric || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")))
      // Not a scheme: a relative reference (`/a:b` and `a/b:c` are paths).
      guard isSchemeByte else { return true }
      scheme.append(byte.asciiLowercased)
    }
    guard sawColon, !scheme.isEmpty else { return true }
    return acceptable.contains(String(decoding: scheme, as: UTF8.self))
  }

  private static func hasPrefix(_ uri: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
    let length = prefix.utf8CodeUnitCount
    guard uri.count >= length else { return false }
    let bytes = prefix.utf8Start
    for index in 0..<length where uri[index] != bytes[index] { return false }
    return true
  }

  private static let acceptable: Set<String> = [
    "file", "ftp", "gopher", "h323", "hdl", "http", "https", "imap", "magnet", "mailto", "mms",
    "news", "nntp", "prospero", "rsync", "rtsp", "rtspu", "sftp", "shttp", "sip", "sips",
    "snews", "svn", "svn+ssh", "telnet", "wais", "aim", "callto", "cvs", "facetime", "feed",
    "git", "gtalk", "irc", "ircs", "irc6", "itms", "msnim", "skype", "ssh", "smb", "ymsg",
  ]
}
