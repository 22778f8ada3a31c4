#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` to stderr in one `write`, as it is (no buffering: a message comes before the
/// exit that follows it).
func printError(_ text: String) {
  var text = text
  text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}

/// The terminal's width for the text format, 80 when unknown.
func terminalColumns() -> Int {
  var size = winsize()
  if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
    return Int(size.ws_col)
  }
  return 80
}
