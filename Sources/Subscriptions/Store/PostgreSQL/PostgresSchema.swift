/// The shared database's schema, versioned in a `schema_version` table. `migrations[n]` takes
/// a database from version n to n + 1; a new version appends a step, never edits one.
///
/// - `sources`: one row per source, its state in columns (`StateColumns`), `next_check_at`
///   with an index, and the lease (`lease_until` on the database's clock, `lease_owner`) that
///   makes one worker the only one pulling a source.
/// - `items`: remembered items by (source, key), hashes only, removed with their source.
/// - `hosts`: a host's Retry-After hold and the time its next request may start (seconds since
///   1970 on the database's clock), shared by every worker.
enum PostgresSchema {
  static let migrations: [String] = [
    """
    CREATE TABLE sources(
      id bigserial PRIMARY KEY,
      source text COLLATE "C" NOT NULL UNIQUE,
      next_check_at bigint NOT NULL DEFAULT 0,
      lease_until timestamptz,
      lease_owner text,
      state text);
    CREATE INDEX sources_next_check ON sources(next_check_at);
    CREATE TABLE items(
      source_id bigint NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
      key bigint NOT NULL,
      id_key bigint,
      link_key bigint,
      content_key bigint NOT NULL,
      fingerprint bigint NOT NULL,
      last_seen bigint NOT NULL,
      last_pull bigint NOT NULL,
      gone boolean NOT NULL DEFAULT false,
      PRIMARY KEY(source_id, key));
    CREATE TABLE hosts(host text PRIMARY KEY, hold_until bigint NOT NULL);
    """,
    // 2: the host delay shared by every worker: when the next request to a host may start.
    """
    ALTER TABLE hosts ADD COLUMN next_start_at double precision;
    """,
    // 3: the state in columns, as in SQLite (read and written without a JSON coder).
    """
    ALTER TABLE sources ADD COLUMN next_check_reason text, ADD COLUMN etag text,
      ADD COLUMN last_modified text, ADD COLUMN body_digest bigint,
      ADD COLUMN last_check_at bigint, ADD COLUMN last_unconditional_at bigint,
      ADD COLUMN errors_in_row bigint, ADD COLUMN gone bigint, ADD COLUMN redirect_target text,
      ADD COLUMN redirect_count bigint, ADD COLUMN moved_to text, ADD COLUMN identity_mode text,
      ADD COLUMN pulls bigint, ADD COLUMN new_item_times text;
    UPDATE sources SET
      next_check_reason = j.s->>'nextCheckReason', etag = j.s->>'etag',
      last_modified = j.s->>'lastModified',
      body_digest = CASE WHEN (j.s->>'bodyDigest')::numeric > 9223372036854775807
        THEN ((j.s->>'bodyDigest')::numeric - 18446744073709551616)::bigint
        ELSE (j.s->>'bodyDigest')::bigint END,
      last_check_at = (j.s->>'lastCheckAt')::bigint,
      last_unconditional_at = (j.s->>'lastUnconditionalAt')::bigint,
      errors_in_row = (j.s->>'errorsInRow')::bigint,
      gone = CASE WHEN (j.s->>'gone')::boolean THEN 1 ELSE 0 END,
      redirect_target = j.s->>'redirectTarget', redirect_count = (j.s->>'redirectCount')::bigint,
      moved_to = j.s->>'movedTo', identity_mode = nullif(j.s->>'identityMode', 'id'),
      pulls = (j.s->>'pulls')::bigint,
      new_item_times = (SELECT string_agg(value, ',')
        FROM jsonb_array_elements_text(j.s->'newItemTimes') AS value)
    FROM (SELECT id, state::jsonb AS s FROM sources WHERE state IS NOT NULL) AS j
    WHERE sources.id = j.id;
    ALTER TABLE sources DROP COLUMN state;
    """,
  ]

  static var currentVersion: Int64 { Int64(migrations.count) }

  /// Brings the database to the current version in one transaction, under an advisory lock,
  /// so that workers starting together migrate once (the others wait, then find it done). A
  /// database from a newer feedpull is refused rather than misread.
  static func migrate(_ connection: PostgresConnection, create: Bool = true) throws(StoreError) {
    try connection.execute("BEGIN")
    do throws(StoreError) {
      // Any constant shared by every feedpull: "feedpull" in ASCII.
      try connection.execute("SELECT pg_advisory_xact_lock(7378656164707531)")
      if !create {
        var exists = false
        try connection.run("SELECT to_regclass('schema_version') IS NOT NULL") { row in
          exists = row.boolean(0)
        }
        guard exists else {
          throw StoreError(message: "no state in \(connection.label)", kind: .noState)
        }
      }
      try connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_version(version bigint NOT NULL)")
      var version: Int64?
      try connection.run("SELECT version FROM schema_version") { row in
        version = row.integer(0)
      }
      if version == nil {
        try connection.execute("INSERT INTO schema_version(version) VALUES(0)")
      }
      let current = version ?? 0
      guard current <= currentVersion else {
        throw StoreError(
          message: "\(connection.label) has schema version \(current); "
            + "this feedpull knows up to \(currentVersion)")
      }
      for step in migrations[Int(current)...] { try connection.execute(step) }
      try connection.run(
        "UPDATE schema_version SET version = $1::bigint", [.integer(currentVersion)])
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }
}
