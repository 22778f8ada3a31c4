/// The state file's schema, versioned in `PRAGMA user_version`. `migrations[n]` takes a
/// database from version n to n + 1; a new version appends a step, never edits one.
///
/// - `sources`: one row per source, its state in columns (`StateColumns`), `next_check_at` with
///   an index so `--due` reads only the due rows.
/// - `claims`: the sources some process is pulling, a row per claim (a JSON array of the
///   sources' row ids, `lease_until` in milliseconds since 1970 on this machine's clock,
///   `lease_owner`): what keeps one process the only one pulling a source. A claim writes one
///   small row, not the rows of the sources it takes; the ends that follow shrink it, a batch of
///   ends a statement, and the last one deletes it (`HeldClaims`).
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
    """,
    // 2: the state in columns instead of one JSON text (read and written without a JSON coder),
    // and leases, so that processes sharing the file never pull one source at once.
    """
    ALTER TABLE sources ADD COLUMN next_check_reason TEXT;
    ALTER TABLE sources ADD COLUMN etag TEXT;
    ALTER TABLE sources ADD COLUMN last_modified TEXT;
    ALTER TABLE sources ADD COLUMN body_digest INTEGER;
    ALTER TABLE sources ADD COLUMN last_check_at INTEGER;
    ALTER TABLE sources ADD COLUMN last_unconditional_at INTEGER;
    ALTER TABLE sources ADD COLUMN errors_in_row INTEGER;
    ALTER TABLE sources ADD COLUMN gone INTEGER;
    ALTER TABLE sources ADD COLUMN redirect_target TEXT;
    ALTER TABLE sources ADD COLUMN redirect_count INTEGER;
    ALTER TABLE sources ADD COLUMN moved_to TEXT;
    ALTER TABLE sources ADD COLUMN identity_mode TEXT;
    ALTER TABLE sources ADD COLUMN pulls INTEGER;
    ALTER TABLE sources ADD COLUMN new_item_times TEXT;
    ALTER TABLE sources ADD COLUMN lease_until INTEGER;
    ALTER TABLE sources ADD COLUMN lease_owner TEXT;
    UPDATE sources SET
      next_check_reason = json_extract(state, '$.nextCheckReason'),
      etag = json_extract(state, '$.etag'),
      last_modified = json_extract(state, '$.lastModified'),
      body_digest = CASE WHEN json_type(state, '$.bodyDigest') = 'integer'
        THEN json_extract(state, '$.bodyDigest') END,
      last_check_at = json_extract(state, '$.lastCheckAt'),
      last_unconditional_at = json_extract(state, '$.lastUnconditionalAt'),
      errors_in_row = json_extract(state, '$.errorsInRow'),
      gone = json_extract(state, '$.gone'),
      redirect_target = json_extract(state, '$.redirectTarget'),
      redirect_count = json_extract(state, '$.redirectCount'),
      moved_to = json_extract(state, '$.movedTo'),
      identity_mode = nullif(json_extract(state, '$.identityMode'), 'id'),
      pulls = json_extract(state, '$.pulls'),
      new_item_times = (SELECT group_concat(value, ',') FROM json_each(state, '$.newItemTimes'))
    WHERE state IS NOT NULL;
    ALTER TABLE sources DROP COLUMN state;
    """,
    // 3: leases as claims, a row for each (a claim and the ends it leads to no longer rewrite
    // the same pages of `sources` in two transactions).
    """
    CREATE TABLE claims(
      id INTEGER PRIMARY KEY,
      lease_owner TEXT NOT NULL,
      lease_until INTEGER NOT NULL,
      sources TEXT NOT NULL);
    INSERT INTO claims(lease_owner, lease_until, sources)
      SELECT lease_owner, lease_until, json_array(id) FROM sources
      WHERE lease_until IS NOT NULL AND lease_owner IS NOT NULL;
    ALTER TABLE sources DROP COLUMN lease_until;
    ALTER TABLE sources DROP COLUMN lease_owner;
    """,
  ]

  static var currentVersion: Int64 { Int64(migrations.count) }

  /// The schema `migrations` lead to, created at once in a new file. Run step by step, each of
  /// the steps' nineteen `ALTER TABLE`s had SQLite parse the whole schema again: 6.5 ms of the
  /// 15 ms of CPU a first `--state` run spent on its new file beyond a run without state. A new
  /// version changes this too; a test compares the tables and indexes it makes with those the
  /// steps make. Its tables are written out again rather than shared with the first step: a
  /// step is never edited, and this is.
  static let current = """
    CREATE TABLE sources(
      id INTEGER PRIMARY KEY,
      source TEXT NOT NULL UNIQUE,
      next_check_at INTEGER NOT NULL DEFAULT 0,
      next_check_reason TEXT, etag TEXT, last_modified TEXT, body_digest INTEGER,
      last_check_at INTEGER, last_unconditional_at INTEGER, errors_in_row INTEGER, gone INTEGER,
      redirect_target TEXT, redirect_count INTEGER, moved_to TEXT, identity_mode TEXT,
      pulls INTEGER, new_item_times TEXT);
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
    CREATE TABLE claims(
      id INTEGER PRIMARY KEY,
      lease_owner TEXT NOT NULL,
      lease_until INTEGER NOT NULL,
      sources TEXT NOT NULL);
    """

  /// The file's version (0: an empty file).
  static func version(_ connection: SQLiteConnection) throws(StoreError) -> Int64 {
    var version: Int64 = 0
    try connection.run("PRAGMA user_version") { row in version = row.integer(0) }
    return version
  }

  /// Brings the database to the current version, in one write transaction (a second process
  /// opening at the same moment waits, then finds it done): an empty file gets `current`, an
  /// older one the steps it lacks. A file from a newer feedpull is refused rather than misread.
  static func migrate(_ connection: SQLiteConnection) throws(StoreError) {
    try connection.execute("BEGIN IMMEDIATE")
    do throws(StoreError) {
      let version = try version(connection)
      try refuseNewer(version, connection)
      if version == 0 {
        try connection.execute(current)
      } else {
        for step in migrations[Int(version)...] { try connection.execute(step) }
      }
      if version < currentVersion {
        try connection.execute("PRAGMA user_version = \(currentVersion)")
      }
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  static func refuseNewer(_ version: Int64, _ connection: SQLiteConnection) throws(StoreError) {
    guard version <= currentVersion else {
      throw StoreError(
        message: "state file \(connection.path) has schema version \(version); "
          + "this feedpull knows up to \(currentVersion)")
    }
  }
}
