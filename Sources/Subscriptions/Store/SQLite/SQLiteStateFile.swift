#if canImport(Glibc)
  import Glibc
#endif

/// The state file on disk before SQLite opens it: a new one is made with mode 0600 in
/// directories made with mode 0700 (SQLite gives its `-wal` and `-shm` files the database's
/// mode), since the state lists what a person subscribes to; an existing one is left as it is.
/// A caller that must not create a state (`state list`) gets `noState` instead.
enum SQLiteStateFile {
  /// Whether a file (of any kind) exists at `path`.
  static func exists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  /// Makes sure a database file can be opened at `path`: creates it (and its missing parent
  /// directories) unless it exists; with `create` false, a missing file is a `noState` error.
  static func prepare(_ path: String, create: Bool) throws(StoreError) {
    if exists(path) { return }
    guard create else {
      throw StoreError(
        message: "no state at \(path) (nothing has been pulled with it)", kind: .noState)
    }
    try makeParents(of: path)
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      close(descriptor)
    } else if errno != EEXIST {
      throw StoreError(message: "cannot create state file \(path): \(errorText())")
    }
  }

  /// Creates the missing directories above `path`, each with mode 0700.
  private static func makeParents(of path: String) throws(StoreError) {
    var missing: [String] = []
    var directory = parent(of: path)
    while let current = directory, !exists(current) {
      missing.append(current)
      directory = parent(of: current)
    }
    for directory in missing.reversed() {
      guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
        throw StoreError(
          message: "cannot create the directory \(directory) for the state file \(path): "
            + errorText())
      }
    }
  }

  /// The directory part of `path`; nil for a bare file name or the root.
  private static func parent(of path: String) -> String? {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.last == "/" { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return nil }
    let directory = trimmed[..<slash]
    return directory.isEmpty ? nil : String(directory)
  }

  private static func errorText() -> String {
    String(cString: strerror(errno))
  }
}
