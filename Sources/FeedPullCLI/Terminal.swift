import FeedPull

#if canImport(Glibc)
  import Glibc
#endif

/// A line on stderr, in one `write` (no buffering: a message comes before the exit that follows
/// it); it may quote a source or a server's words, so only what a terminal shows as text gets
/// there (`TerminalText`).
func printError(_ text: String) {
  var text = TerminalText.safe(text)
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
