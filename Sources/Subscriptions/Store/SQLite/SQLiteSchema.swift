/// The state file's schema, versioned in `PRAGMA user_version`. `migrations[n]` takes a
/// database from version n to n + 1; a new version appends a step, never edits one.
///
/// - `sources`: one row per source, its `SubscriptionState` as JSON, `next_check_at` beside it
///   with an index, so `--due` reads only the due rows.
/// - `items`: remembered items by (source, key), hashes only: ~60 bytes a row.
/// - `hosts`: a host's Retry-After hold.
enum SQLiteSchema {
  static let migrations: [String] = [
    """
    CREATE TABLE sources(
      id INTEGER PRIMARY KEY,
      source TEXT NOT NULL UNIQUE,
      next_check_at INTEGER NOT NULL DEFAULT 0,
      state TEXT);
    CREATE INDEX sources_next_check ON sources(next_check_at);
    CREATE TABLE items(
      source_id INTEGER NOT NULL,
      key INTEGER NOT NULL,
      id_key INTEGER,
      link_key INTEGER,
      content_key INTEGER NOT NULL,
      fingerprint INTEGER NOT NULL,
      last_seen INTEGER NOT NULL,
      last_pull INTEGER NOT NULL,
      gone INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY(source_id, key)) WITHOUT ROWID;
    CREATE TABLE hosts(host TEXT PRIMARY KEY, hold_until INTEGER NOT NULL) WITHOUT ROWID;
    """
  ]

  static var currentVersion: Int64 { Int64(migrations.count) }

  /// Brings the database to the current version, in one write transaction (a second process
  /// opening at the same moment waits, then finds it done). A file from a newer feedpull is
  /// refused rather than misread.
  static func migrate(_ connection: SQLiteConnection) throws(StoreError) {
    try connection.execute("BEGIN IMMEDIATE")
    do throws(StoreError) {
      var version: Int64 = 0
      try connection.run("PRAGMA user_version") { row in version = row.integer(0) }
      guard version <= currentVersion else {
        throw StoreError(
          message: "state file \(connection.path) has schema version \(version); "
            + "this feedpull knows up to \(currentVersion)")
      }
      for step in migrations[Int(version)...] { try connection.execute(step) }
      if version < currentVersion {
        try connection.execute("PRAGMA user_version = \(currentVersion)")
      }
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }
}
