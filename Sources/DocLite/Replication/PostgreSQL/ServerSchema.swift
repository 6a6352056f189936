/// The schema DocLite keeps in a PostgreSQL database it syncs with, in the
/// schema `doclite` (docs/sync.md): the documents of every collection with
/// their revision, ancestors, deletion flag, JSONB body, server sequence,
/// owner and last writer; blobs by digest; replicators' checkpoints; and the
/// channels granted to each role. Row-level security keeps each role to the
/// documents it owns or whose channels it was granted; writes go through
/// `doclite.push`, which compares and sets. The version is recorded in
/// `doclite.schema_version`, so a later DocLite can upgrade it.
enum ServerSchema {
    /// The version this DocLite writes and reads.
    static let version = 3

    /// The group role whose members may sync (`GRANT doclite_sync TO alice`).
    static let syncRole = "doclite_sync"

    /// How many ancestor revision IDs the server keeps per document.
    static let maxHistory = 50

    /// The version a server holds, nil when it has no DocLite schema.
    static func installedVersion(_ connection: PostgreSQLConnection) throws -> Int? {
        let exists = try connection.query("SELECT to_regclass('doclite.schema_version') IS NOT NULL") { $0.string(0, 0) == "t" }
        guard exists else { return nil }
        return try connection.query("SELECT max(version) FROM doclite.schema_version") { $0.int64(0, 0).map { Int($0) } }
    }

    /// Checks that the server holds the schema this DocLite reads, creating it
    /// first when `create` is set and the server has none.
    static func prepare(_ connection: PostgreSQLConnection, create: Bool) throws {
        switch try installedVersion(connection) {
        case nil where create:
            try install(connection)
        case nil:
            throw DocLiteError(.remoteError, "the PostgreSQL database has no DocLite schema: run `doclite sync init` with its "
                                + "connection string, or let the endpoint create it (createsSchema)")
        case let found? where found > version:
            throw DocLiteError(.remoteError, "the PostgreSQL database holds DocLite's server schema version \(found), newer than "
                                + "version \(version), which this DocLite reads: upgrade DocLite")
        case let found? where found < version && create:
            try install(connection)
        case let found? where found < version:
            throw DocLiteError(.remoteError, "the PostgreSQL database holds DocLite's server schema version \(found): "
                                + "run `doclite sync init` to upgrade it, or let the endpoint do it (createsSchema)")
        default:
            return
        }
    }

    /// Creates the schema, or upgrades an older one (in one transaction; a
    /// concurrent creator waits, then finds it made). Needs the right to
    /// create schemas and roles.
    static func install(_ connection: PostgreSQLConnection) throws {
        try connection.execute("BEGIN")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('doclite.schema'))")
            switch try installedVersion(connection) {
            case nil:
                for statement in statements { try connection.execute(statement) }
            case let found? where found < version:
                for step in found + 1...version { for statement in upgrades[step] ?? [] { try connection.execute(statement) } }
                try connection.execute("UPDATE doclite.schema_version SET version = \(version)")
            default:
                break
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The statements that bring a server of version N - 1 to version N, by N.
    static let upgrades: [Int: [String]] = [
        2: [hiddenIDs, changes, beforeWrite] + removals + accessNotifies,
        3: [beforeWrite, recordRemoval, recordRemovalTrigger,
            "REVOKE INSERT ON doclite.removals FROM \(syncRole)",
            "DROP POLICY IF EXISTS recorded_by_writes ON doclite.removals"] + syncRoleOnly,
    ]

    /// The functions only members of `doclite_sync` may call (version 2 left
    /// `push` and `changes` to everyone).
    static let syncRoleOnly = ["doclite.hidden_ids(text, text[], name)", "doclite.push(text, jsonb)",
                               "doclite.changes(text, bigint, integer, text[], text[])"].flatMap {
        ["REVOKE EXECUTE ON FUNCTION \($0) FROM PUBLIC", "GRANT EXECUTE ON FUNCTION \($0) TO \(syncRole)"]
    }

    /// A pull's batch: the first `p_limit` rows of the collection after
    /// sequence `p_since` (in `p_channels`, of `p_ids`; NULL: all), in order,
    /// bodies as text. The plan is pinned to the walk of the sequence index:
    /// right after a bulk push the table's statistics still describe it empty,
    /// and the planner's choice then (a bitmap scan and a sort) read every row
    /// after the checkpoint for each batch, a pull's time growing as its square.
    static let changes = """
        CREATE OR REPLACE FUNCTION doclite.changes(p_collection text, p_since bigint, p_limit integer, p_channels text[], p_ids text[])
        RETURNS TABLE (sequence bigint, id text, revid text, history text, deleted boolean, body text)
        LANGUAGE sql STABLE SET enable_bitmapscan = off SET enable_sort = off SET enable_seqscan = off AS $$
            SELECT b.sequence, b.id, b.revid, array_to_string(b.history, ','), b.deleted, b.body::text FROM (
                SELECT * FROM doclite.documents d
                WHERE d.collection = p_collection AND d.sequence > p_since
                  AND (p_channels IS NULL OR d.channels && p_channels) AND (p_ids IS NULL OR d.id = ANY (p_ids))
                ORDER BY d.collection, d.sequence LIMIT p_limit) b
            ORDER BY b.sequence
        $$
        """

    /// Which of `p_ids` exist but are hidden from `p_role` (a push of them is
    /// refused, 403, rather than failing the batch on the policy). The
    /// comparisons name their collation: a call with `current_user` (a `name`,
    /// collated "C") would otherwise collate them "C", and the key's index,
    /// collated "default", could not serve them (a scan of the whole table per
    /// push; version 1's mistake).
    static let hiddenIDs = """
        CREATE OR REPLACE FUNCTION doclite.hidden_ids(p_collection text, p_ids text[], p_role name) RETURNS SETOF text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT d.id FROM doclite.documents d
            WHERE d.collection = p_collection COLLATE "default" AND d.id = ANY (p_ids COLLATE "default")
              AND NOT (d.owner = p_role OR d.channels && doclite.granted_channels(p_role))
        $$
        """

    /// Every write, through doclite.push or by hand: the owner is the creator
    /// and stays; the author, the channels (a tombstone keeps its document's)
    /// and the sequence are the server's; a new revision must descend from the
    /// stored one; writes of a collection are serialized, so sequences commit
    /// in order.
    static let beforeWrite = """
        CREATE OR REPLACE FUNCTION doclite.documents_before_write() RETURNS trigger
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            IF TG_OP = 'UPDATE' THEN
                IF NEW.owner IS DISTINCT FROM OLD.owner OR NEW.collection IS DISTINCT FROM OLD.collection
                   OR NEW.id IS DISTINCT FROM OLD.id THEN
                    RAISE EXCEPTION 'the owner, collection and ID of a DocLite document do not change' USING ERRCODE = '42501';
                END IF;
                IF NEW.revid IS DISTINCT FROM OLD.revid AND NOT (OLD.revid = ANY (NEW.history)) THEN
                    RAISE EXCEPTION 'revision % of document % does not descend from the stored revision %', NEW.revid, NEW.id, OLD.revid
                        USING ERRCODE = '42501';
                END IF;
                NEW.channels := CASE WHEN NEW.deleted THEN OLD.channels ELSE doclite.channels_of(NEW.body) END;
            ELSE
                NEW.owner := current_user;
                NEW.channels := doclite.channels_of(NEW.body);
            END IF;
            NEW.author := current_user;
            PERFORM pg_advisory_xact_lock(hashtext('doclite.documents ' || NEW.collection));
            NEW.sequence := nextval('doclite.change_sequence');
            RETURN NEW;
        END
        $$
        """

    /// Where documents left channels, at which sequence: readable by the roles
    /// granted those channels, whose devices then purge the documents they no
    /// longer see (Sync Gateway's "removed" revisions).
    static let removals = [
        """
        CREATE TABLE doclite.removals (
            collection text NOT NULL,
            id text NOT NULL,
            channels text[] NOT NULL,
            sequence bigint NOT NULL)
        """,
        "CREATE INDEX removals_by_sequence ON doclite.removals (collection, sequence)",
        "GRANT SELECT ON doclite.removals TO \(syncRole)",
        "ALTER TABLE doclite.removals ENABLE ROW LEVEL SECURITY",
        """
        CREATE POLICY removed_from_granted ON doclite.removals FOR SELECT
            USING (channels && doclite.granted_channels(current_user))
        """,
    ]

    /// Records the channels a revision leaves in `removals`, with the rights
    /// of the schema's owner: no member of `doclite_sync` writes there itself
    /// (version 2 let them, so one could have invented removals).
    static let recordRemoval = """
        CREATE OR REPLACE FUNCTION doclite.record_removal() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            INSERT INTO doclite.removals VALUES (NEW.collection, NEW.id,
                ARRAY(SELECT unnest(OLD.channels) EXCEPT SELECT unnest(NEW.channels)), NEW.sequence);
            RETURN NULL;
        END
        $$
        """

    /// Runs ``recordRemoval`` for each revision that leaves one of its document's channels.
    static let recordRemovalTrigger = """
        CREATE TRIGGER after_channels_left AFTER UPDATE ON doclite.documents
            FOR EACH ROW WHEN (NOT (OLD.channels <@ NEW.channels)) EXECUTE FUNCTION doclite.record_removal()
        """

    /// A change of grants wakes continuous replicators, which then pull what
    /// was granted and purge what was revoked.
    static let accessNotifies = [
        """
        CREATE FUNCTION doclite.access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('doclite_changes', '');
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER after_access_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON doclite.channel_access
            FOR EACH STATEMENT EXECUTE FUNCTION doclite.access_changed()
        """,
    ]

    /// The statements that create the schema of this version.
    static let statements: [String] = [
        """
        DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(syncRole)') THEN CREATE ROLE \(syncRole) NOLOGIN; END IF;
        END $$
        """,
        "CREATE SCHEMA doclite",
        "GRANT USAGE ON SCHEMA doclite TO \(syncRole)",
        "CREATE TABLE doclite.schema_version (version integer NOT NULL)",
        "INSERT INTO doclite.schema_version VALUES (\(version))",
        "GRANT SELECT ON doclite.schema_version TO \(syncRole)",
        // A document's channels: its `channels` property, a string or an array
        // of strings (Sync Gateway's default sync function reads the same).
        """
        CREATE FUNCTION doclite.channels_of(body jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT AS $$
            SELECT CASE jsonb_typeof(body -> 'channels')
                WHEN 'string' THEN ARRAY[body ->> 'channels']
                WHEN 'array' THEN ARRAY(SELECT jsonb_array_elements_text(body -> 'channels'))
                ELSE '{}'::text[] END
        $$
        """,
        "CREATE SEQUENCE doclite.change_sequence",
        "GRANT USAGE ON SEQUENCE doclite.change_sequence TO \(syncRole)",
        """
        CREATE TABLE doclite.documents (
            collection text NOT NULL,
            id text NOT NULL,
            revid text NOT NULL,
            history text[] NOT NULL DEFAULT '{}',
            deleted boolean NOT NULL DEFAULT false,
            body jsonb NOT NULL DEFAULT '{}',
            sequence bigint NOT NULL,
            owner name NOT NULL DEFAULT current_user,
            author name NOT NULL DEFAULT current_user,
            channels text[] NOT NULL DEFAULT '{}',
            PRIMARY KEY (collection, id))
        """,
        "CREATE INDEX documents_by_sequence ON doclite.documents (collection, sequence)",
        "GRANT SELECT, INSERT, UPDATE ON doclite.documents TO \(syncRole)",
        """
        CREATE TABLE doclite.channel_access (
            role name NOT NULL,
            channel text NOT NULL,
            PRIMARY KEY (role, channel))
        """,
        "GRANT SELECT ON doclite.channel_access TO \(syncRole)",
        "ALTER TABLE doclite.channel_access ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY own_grants ON doclite.channel_access USING (role = current_user)",
        """
        CREATE FUNCTION doclite.granted_channels(p_role name) RETURNS text[] LANGUAGE sql STABLE AS $$
            SELECT coalesce(array_agg(channel), '{}') FROM doclite.channel_access WHERE role = p_role
        $$
        """,
        beforeWrite,
    ] + removals + accessNotifies + [
        """
        CREATE TRIGGER before_write BEFORE INSERT OR UPDATE ON doclite.documents
            FOR EACH ROW EXECUTE FUNCTION doclite.documents_before_write()
        """,
        recordRemoval,
        recordRemovalTrigger,
        "ALTER TABLE doclite.documents ENABLE ROW LEVEL SECURITY",
        """
        CREATE POLICY owner_or_channel ON doclite.documents
            USING (owner = current_user OR channels && doclite.granted_channels(current_user))
            WITH CHECK (owner = current_user OR channels && doclite.granted_channels(current_user))
        """,
        hiddenIDs,
        changes,
        """
        CREATE TABLE doclite.blobs (
            digest text PRIMARY KEY,
            content bytea NOT NULL,
            author name NOT NULL DEFAULT current_user)
        """,
        "GRANT SELECT, INSERT ON doclite.blobs TO \(syncRole)",
        """
        CREATE TABLE doclite.checkpoints (
            client text PRIMARY KEY,
            body jsonb NOT NULL,
            owner name NOT NULL DEFAULT current_user)
        """,
        "GRANT SELECT, INSERT, UPDATE ON doclite.checkpoints TO \(syncRole)",
        "ALTER TABLE doclite.checkpoints ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY own_checkpoints ON doclite.checkpoints USING (owner = current_user) WITH CHECK (owner = current_user)",
        // The compare-and-set of a batch of revisions of one collection, each
        // {id, rev, parent, deleted, body}: a revision is written when its
        // parent is the server's current revision (or the document is new, or
        // deleted and the revision has no parent); the answer per document is
        // 0 (written), 304 (the server has that revision already), 409 (its
        // parent is not the server's current revision, which is returned),
        // 400 (malformed) or 403 (the document is another role's, or the write
        // would take it out of this role's reach). Writes of a collection are
        // serialized (here and in the trigger), so sequences commit in order
        // and a pull by sequence misses nothing.
        """
        CREATE FUNCTION doclite.push(p_collection text, p_revisions jsonb)
        RETURNS TABLE (id text, status integer, current_revid text)
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('doclite.documents ' || p_collection));
            CREATE TEMPORARY TABLE IF NOT EXISTS doclite_push_decisions (
                id text, rev text, deleted boolean, body jsonb, status integer,
                current_revid text, history text[]) ON COMMIT DELETE ROWS;
            TRUNCATE doclite_push_decisions;
            INSERT INTO doclite_push_decisions
            SELECT r.id, r.rev, coalesce(r.deleted, false), coalesce(r.body, '{}'),
                CASE WHEN r.id IS NULL OR r.rev IS NULL OR r.rev !~ '^[0-9]{1,9}-[0-9a-f]{40}$'
                          OR jsonb_typeof(coalesce(r.body, '{}')) <> 'object' THEN 400
                     WHEN h.hidden IS NOT NULL THEN 403
                     WHEN d.id IS NULL THEN 0
                     WHEN d.owner <> current_user AND NOT ((CASE WHEN coalesce(r.deleted, false) THEN d.channels
                          ELSE doclite.channels_of(coalesce(r.body, '{}')) END) && doclite.granted_channels(current_user)) THEN 403
                     WHEN d.revid = r.rev OR r.rev = ANY (d.history) THEN 304
                     WHEN d.revid = r.parent OR (d.deleted AND r.parent IS NULL) THEN 0
                     ELSE 409 END,
                d.revid,
                CASE WHEN d.id IS NOT NULL THEN (d.revid || d.history)[1:\(maxHistory)]
                     WHEN r.parent IS NOT NULL THEN ARRAY[r.parent] ELSE '{}' END
            FROM jsonb_to_recordset(p_revisions) AS r(id text, rev text, parent text, deleted boolean, body jsonb)
            LEFT JOIN doclite.documents d ON d.collection = p_collection AND d.id = r.id
            LEFT JOIN doclite.hidden_ids(p_collection, ARRAY(SELECT x ->> 'id' FROM jsonb_array_elements(p_revisions) x), current_user)
                AS h(hidden) ON h.hidden = r.id;
            INSERT INTO doclite.documents AS d (collection, id, revid, history, deleted, body, sequence)
            SELECT p_collection, p.id, p.rev, p.history, p.deleted, p.body, 0   -- (the trigger numbers it)
            FROM doclite_push_decisions p WHERE p.status = 0
            ON CONFLICT ON CONSTRAINT documents_pkey DO UPDATE SET revid = excluded.revid, history = excluded.history,
                deleted = excluded.deleted, body = excluded.body;
            IF FOUND THEN PERFORM pg_notify('doclite_changes', p_collection); END IF;
            RETURN QUERY SELECT p.id, p.status, p.current_revid FROM doclite_push_decisions p;
        END
        $$
        """,
    ] + syncRoleOnly
}
