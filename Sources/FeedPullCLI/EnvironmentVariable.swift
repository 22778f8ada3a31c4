#if canImport(Glibc)
  import Glibc
#endif

/// One environment variable's value, read with `getenv`: `ProcessInfo.environment` copies the
/// whole environment into a dictionary on every call (about 350,000 instructions each, and a
/// run read it three times) to answer for one name.
func environmentVariable(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}
