/// The URL a document's relative references resolve against, before any `xml:base`.
public enum DocumentBase {
  /// Over HTTP, the `Content-Location` header when it gives one (itself resolved against the
  /// final URL, as RFC 9110 section 8.7 says, and only with a scheme a link may have), else
  /// the final URL after redirects. feedparser takes the same base, and its corpus serves
  /// feeds whose relative links only resolve right against it.
  public static func of(url: String?, contentLocation: String?) -> String? {
    guard let location = contentLocation?.trimmingSpaces(), !location.isEmpty else { return url }
    let resolved = URIResolver.resolve(location, against: url)
    var bytes = Array(resolved.utf8)
    let acceptable = bytes.withUnsafeMutableBufferPointer {
      URISchemes.isAcceptable(UnsafeBufferPointer($0))
    }
    return acceptable ? resolved : url
  }
}
