"""The PostgreSQL store's tables and their migrations: ``SCHEMA_VERSION``, the DDL of each
step (``_migrations``), and ``migrate`` (an older layout is upgraded in place under an
advisory lock; a newer one is refused with ``SchemaTooNew``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtool.stores.postgres.common import _key

if TYPE_CHECKING:  # pragma: no cover
    import psycopg

#: Version of the table layout this code writes; see ``MIGRATIONS``.
SCHEMA_VERSION = 10


class SchemaTooNew(RuntimeError):
    """The database was laid out by a newer memtool than this one."""


def _migrations(schema: str) -> dict[int, list[str]]:
    """DDL that takes the schema from version ``n - 1`` to ``n``, keyed by ``n``."""
    s = schema
    return {
        1: [
            f"CREATE SEQUENCE IF NOT EXISTS {s}.version_seq",
            f"CREATE SEQUENCE IF NOT EXISTS {s}.content_seq",
            f"""CREATE TABLE IF NOT EXISTS {s}.nodes (
                ns text NOT NULL,
                path bytea NOT NULL,
                parent bytea NOT NULL,
                kind "char" NOT NULL CHECK (kind IN ('f', 'd')),
                mode integer NOT NULL,
                mtime double precision NOT NULL,
                version bigint NOT NULL,
                cid bigint,
                size bigint NOT NULL DEFAULT 0,
                tail_off bigint NOT NULL DEFAULT 0,
                tail_count integer NOT NULL DEFAULT 0,
                PRIMARY KEY (ns, path)
            )""",
            f"CREATE INDEX IF NOT EXISTS nodes_parent ON {s}.nodes (ns, parent)",
            f"""CREATE TABLE IF NOT EXISTS {s}.chunks (
                cid bigint NOT NULL,
                off bigint NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (cid, off)
            )""",
            f"ALTER TABLE {s}.chunks ALTER COLUMN data SET STORAGE EXTERNAL",
        ],
        # Version 2: appends go to ``pending`` first (no lock between appenders), sealed
        # into ``chunks`` in order by the next reader or every MERGE_COUNT appends.
        2: [
            f"""CREATE TABLE IF NOT EXISTS {s}.pending (
                cid bigint NOT NULL,
                seq bigint NOT NULL,
                at double precision NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (cid, seq)
            )""",
            # One round trip per append. Its statements run in order, each with a fresh
            # snapshot (a volatile function): the row is looked up *after* the lock is held,
            # so an append that waited for a rewrite appends to the new content.
            f"""CREATE OR REPLACE FUNCTION {s}.append(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea) RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_cid bigint;
                v_count bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                SELECT cid INTO v_cid FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f';
                IF NOT FOUND THEN
                    RETURN NULL;
                END IF;
                INSERT INTO {s}.pending (cid, seq, at, data)
                    VALUES (v_cid, nextval('{s}.version_seq'), p_at, p_data);
                SELECT count(*) INTO v_count FROM {s}.pending WHERE cid = v_cid;
                RETURN v_count;
            END
            $fn$""",
        ],
        # Version 3: ``append`` can append a *line* (``append_line``): it refuses (returns -1,
        # nothing inserted) when the file's last byte is not a newline, so the caller adds one
        # under the exclusive lock.
        3: [
            f"DROP FUNCTION IF EXISTS {s}.append(text, bytea, bigint, double precision, bytea)",
            f"""CREATE OR REPLACE FUNCTION {s}.last_byte(p_cid bigint) RETURNS bytea
                LANGUAGE sql STABLE AS $fn$
                SELECT coalesce(
                    (SELECT substring(data FROM octet_length(data) FOR 1) FROM {s}.pending
                     WHERE cid = p_cid ORDER BY seq DESC LIMIT 1),
                    (SELECT substring(data FROM octet_length(data) FOR 1) FROM {s}.chunks
                     WHERE cid = p_cid AND octet_length(data) > 0 ORDER BY off DESC LIMIT 1))
            $fn$""",
            f"""CREATE OR REPLACE FUNCTION {s}.append(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea, p_line boolean) RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_cid bigint;
                v_count bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                SELECT cid INTO v_cid FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f';
                IF NOT FOUND THEN
                    RETURN NULL;
                END IF;
                IF p_line AND coalesce({s}.last_byte(v_cid), '\x0a'::bytea) <> '\x0a'::bytea THEN
                    RETURN -1;
                END IF;
                INSERT INTO {s}.pending (cid, seq, at, data)
                    VALUES (v_cid, nextval('{s}.version_seq'), p_at, p_data);
                SELECT count(*) INTO v_count FROM {s}.pending WHERE cid = v_cid;
                RETURN v_count;
            END
            $fn$""",
        ],
        # Version 4: ``open`` looks a file up for reading in one round trip: its sealed size,
        # its content if small, and its pending appends, taken after a moment's exclusive
        # lock when there are any (so they form a prefix of the file that never changes).
        4: [
            f"""CREATE OR REPLACE FUNCTION {s}.open(p_ns text, p_path bytea, p_key bigint,
                    p_inline bigint)
                RETURNS TABLE (o_kind "char", o_cid bigint, o_size bigint, o_inline bytea,
                               o_tail bytea)
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                n record;
            BEGIN
                SELECT x.kind, x.cid, x.size INTO n FROM {s}.nodes x
                    WHERE x.ns = p_ns AND x.path = p_path;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                IF n.kind = 'f' AND EXISTS (SELECT 1 FROM {s}.pending p WHERE p.cid = n.cid) THEN
                    PERFORM pg_advisory_xact_lock(p_key);
                    SELECT x.kind, x.cid, x.size INTO n FROM {s}.nodes x
                        WHERE x.ns = p_ns AND x.path = p_path;
                    IF NOT FOUND THEN
                        RETURN;
                    END IF;
                END IF;
                RETURN QUERY SELECT n.kind, n.cid, n.size,
                    CASE WHEN n.kind = 'f' AND n.size <= p_inline THEN
                        (SELECT string_agg(c.data, ''::bytea ORDER BY c.off) FROM {s}.chunks c
                         WHERE c.cid = n.cid) END,
                    (SELECT string_agg(p.data, ''::bytea ORDER BY p.seq) FROM {s}.pending p
                     WHERE p.cid = n.cid);
            END
            $fn$""",
        ],
        # Version 5: ``append`` takes the seal threshold and counts the file's pending rows
        # only when they could have reached it: its pending seqs are unique, so there are at
        # most max(seq) - min(seq) + 1 of them (two index probes instead of a count(*) of up
        # to MERGE_COUNT rows on every append). Returns that bound while it is below
        # ``p_merge``, else the exact count. (The version-3 function stays, unused.)
        5: [
            f"""CREATE OR REPLACE FUNCTION {s}.append(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea, p_line boolean, p_merge bigint)
                RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_cid bigint;
                v_first bigint;
                v_last bigint;
                v_count bigint;
                v_byte bytea;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                SELECT cid INTO v_cid FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f';
                IF NOT FOUND THEN
                    RETURN NULL;
                END IF;
                IF p_line THEN
                    -- last_byte(v_cid), inlined: a SQL function called from here would be
                    -- parsed and planned again in every transaction.
                    SELECT substring(p.data FROM octet_length(p.data) FOR 1) INTO v_byte
                        FROM {s}.pending p WHERE p.cid = v_cid ORDER BY p.seq DESC LIMIT 1;
                    IF NOT FOUND THEN
                        SELECT substring(c.data FROM octet_length(c.data) FOR 1) INTO v_byte
                            FROM {s}.chunks c WHERE c.cid = v_cid AND octet_length(c.data) > 0
                            ORDER BY c.off DESC LIMIT 1;
                    END IF;
                    IF coalesce(v_byte, '\x0a'::bytea) <> '\x0a'::bytea THEN
                        RETURN -1;
                    END IF;
                END IF;
                INSERT INTO {s}.pending (cid, seq, at, data)
                    VALUES (v_cid, nextval('{s}.version_seq'), p_at, p_data);
                SELECT min(seq), max(seq) INTO v_first, v_last FROM {s}.pending
                    WHERE cid = v_cid;
                IF v_last - v_first + 1 < p_merge THEN
                    RETURN v_last - v_first + 1;
                END IF;
                SELECT count(*) INTO v_count FROM {s}.pending WHERE cid = v_cid;
                RETURN v_count;
            END
            $fn$""",
        ],
        # Version 6: the append path reads nothing of ``pending``. Reading the newest pending
        # row (the last-byte check) and the bounds of a file's pending seqs meant scanning
        # index entries that concurrent appenders were inserting (checking each in-flight
        # transaction's status), which cost more than the insert itself with many appenders.
        # Now ``nodes.nl`` says whether the content ends with a newline (or is empty); every
        # write that can change it (``write_bytes``, the exclusive append path) keeps it
        # right, and ``append_nl`` appends a newline-terminated piece only while it is true,
        # so the file's last byte never has to be read. It returns the ``seq`` it took; the
        # caller seals on a pseudo-random 1 in ``SEAL_EVERY`` of them (``_seal_due``).
        6: [
            f"ALTER TABLE {s}.nodes ADD COLUMN IF NOT EXISTS nl boolean NOT NULL DEFAULT true",
            f"""UPDATE {s}.nodes SET nl = coalesce({s}.last_byte(cid), '\\x0a'::bytea) = '\\x0a'::bytea
                WHERE kind = 'f' AND cid IS NOT NULL""",
            # (Version 6 also created ``append_nl``; version 7 replaces it: see there.)
            # Several threads' appends to one file in one transaction (``_Combiner``): what
            # ``append_nl`` does, for each piece in order; NULL if the file is missing, a
            # directory or without a final newline (each caller then takes the exclusive path).
            f"""CREATE OR REPLACE FUNCTION {s}.append_batch(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea[])
                RETURNS bigint[]
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_cid bigint;
                v_piece bytea;
                v_seq bigint;
                v_out bigint[] := '{{}}';
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                SELECT cid INTO v_cid FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f' AND nl;
                IF NOT FOUND THEN
                    RETURN NULL;
                END IF;
                FOREACH v_piece IN ARRAY p_data LOOP
                    v_seq := nextval('{s}.version_seq');
                    INSERT INTO {s}.pending (cid, seq, at, data) VALUES (v_cid, v_seq, p_at, v_piece);
                    v_out := v_out || v_seq;
                END LOOP;
                RETURN v_out;
            END
            $fn$""",
            # Version 6 also created ``seal`` (sealing in one round trip on the server); version 7
            # replaces it, and an upgrade always runs every step, so only that one is kept.
        ],
        # Version 7: ``append_nl`` looks the file up and inserts in one statement (one
        # executor start fewer per append: ~10% more appends/s from 16 processes on the
        # benchmark machine). Still after the lock, in its own statement, so with a snapshot
        # taken once the lock is held: an append that waited for a rewrite appends to the
        # new content. Same signature and result.
        7: [
            f"""CREATE OR REPLACE FUNCTION {s}.append_nl(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea)
                RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_seq bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                INSERT INTO {s}.pending (cid, seq, at, data)
                    SELECT n.cid, nextval('{s}.version_seq'), p_at, p_data FROM {s}.nodes n
                    WHERE n.ns = p_ns AND n.path = p_path AND n.kind = 'f' AND n.nl
                    RETURNING seq INTO v_seq;
                RETURN v_seq;
            END
            $fn$""",
            # ``seal`` rewrites only a *small* last chunk. Before, the chunks written by the
            # last seals were merged into CHUNK_BYTES chunks once they held 1 MB, so every
            # appended byte was written twice more (seal, then merge), and the merges cost
            # 16 appending processes ~10% of their throughput. Now the last chunk a seal
            # writes stays open while it is under ``p_small`` bytes and the next seal rewrites
            # it together with the new bytes; a chunk that reaches ``p_small`` is final. So a
            # byte is rewritten only while its chunk is small (at most ``p_small`` bytes per
            # seal), and chunks are at least ``p_small`` bytes (but the last) without a merge.
            f"DROP FUNCTION IF EXISTS {s}.seal(text, bytea, bigint, bigint, integer, bigint)",
            f"""CREATE OR REPLACE FUNCTION {s}.seal(p_ns text, p_path bytea, p_key bigint,
                    p_chunk bigint, p_small bigint)
                RETURNS void
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                n record;
                v_blob bytea;
                v_tail bytea;
                v_last bigint;
                v_at double precision;
                v_start bigint;
                v_len bigint;
                v_off bigint;
                v_piece bigint := 0;
            BEGIN
                PERFORM pg_advisory_xact_lock(p_key);
                SELECT cid, size, tail_off, tail_count INTO n FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f' FOR UPDATE;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                WITH gone AS (DELETE FROM {s}.pending WHERE cid = n.cid RETURNING seq, at, data)
                SELECT string_agg(data, ''::bytea ORDER BY seq), max(seq), max(at)
                    INTO v_blob, v_last, v_at FROM gone;
                IF v_last IS NULL THEN
                    RETURN;
                END IF;
                v_blob := coalesce(v_blob, ''::bytea);
                v_start := n.size;
                IF n.tail_count > 0 AND n.size - n.tail_off < p_small THEN
                    WITH gone AS (DELETE FROM {s}.chunks WHERE cid = n.cid AND off >= n.tail_off
                                  RETURNING off, data)
                    SELECT string_agg(data, ''::bytea ORDER BY off) INTO v_tail FROM gone;
                    IF coalesce(octet_length(v_tail), 0) <> n.size - n.tail_off THEN
                        RAISE EXCEPTION 'chunk tail is not contiguous';
                    END IF;
                    v_blob := coalesce(v_tail, ''::bytea) || v_blob;
                    v_start := n.tail_off;
                END IF;
                v_len := octet_length(v_blob);
                v_off := 0;
                WHILE v_off < v_len LOOP
                    v_piece := least(p_chunk, v_len - v_off);
                    INSERT INTO {s}.chunks (cid, off, data)
                        VALUES (n.cid, v_start + v_off,
                                substring(v_blob FROM (v_off + 1)::integer FOR p_chunk::integer));
                    v_off := v_off + p_chunk;
                END LOOP;
                IF v_piece = 0 OR v_piece >= p_small THEN  -- else the last chunk stays open
                    v_piece := 0;
                END IF;
                UPDATE {s}.nodes SET size = v_start + v_len, tail_off = v_start + v_len - v_piece,
                        tail_count = (v_piece > 0)::integer, version = greatest(version, v_last),
                        mtime = greatest(mtime, v_at)
                    WHERE ns = p_ns AND path = p_path;
            END
            $fn$""",
        ],
        8: [
            # The version log of each namespace (``memtool.stores.postgres.versions``): one row
            # per change of one file, ids consecutive per namespace in the order of the changes.
            f"""CREATE TABLE IF NOT EXISTS {s}.versions (
                ns text NOT NULL,
                id bigint NOT NULL,
                at double precision NOT NULL,
                actor text NOT NULL,
                detail text NOT NULL DEFAULT '',
                path bytea NOT NULL,
                before text,
                after text,
                call text NOT NULL DEFAULT '',
                PRIMARY KEY (ns, id))""",
            # Each content a version names, once per namespace, by its SHA-256.
            f"""CREATE TABLE IF NOT EXISTS {s}.version_contents (
                ns text NOT NULL,
                digest text NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (ns, digest))""",
            f"ALTER TABLE {s}.version_contents ALTER COLUMN data SET STORAGE EXTERNAL",
            # Changes when retention or an import rewrites a namespace's log (readers reread).
            f"""CREATE TABLE IF NOT EXISTS {s}.version_generation (
                ns text PRIMARY KEY,
                generation bigint NOT NULL)""",
        ],
        # Version 9: ranked recall kept in the database (``memtool.stores.postgres.recall``):
        # what of each file is indexed (``fid`` numbers that indexing), its units, the
        # postings (term -> unit, count) and each term's document frequency per file.
        # Derived data, rebuilt from the files when missing.
        9: [
            f"CREATE SEQUENCE IF NOT EXISTS {s}.recall_fid_seq",
            f"""CREATE TABLE IF NOT EXISTS {s}.recall_files (
                ns text NOT NULL,
                path bytea NOT NULL,
                fid bigint NOT NULL,
                cid bigint,
                version bigint,
                indexed_end bigint NOT NULL,
                partial boolean NOT NULL,
                lines bigint NOT NULL,
                units bigint NOT NULL,
                total_len bigint NOT NULL,
                PRIMARY KEY (ns, path))""",
            f"""CREATE TABLE IF NOT EXISTS {s}.recall_units (
                fid bigint NOT NULL,
                uid integer NOT NULL,
                line bigint NOT NULL,
                date text NOT NULL,
                role text NOT NULL,
                raw text NOT NULL,
                body text,
                context text,
                PRIMARY KEY (fid, uid))""",
            f"""CREATE TABLE IF NOT EXISTS {s}.recall_postings (
                fid bigint NOT NULL,
                term text NOT NULL,
                uid integer NOT NULL,
                tf integer NOT NULL,
                len integer NOT NULL,
                PRIMARY KEY (fid, term, uid) INCLUDE (tf, len))""",
            f"""CREATE TABLE IF NOT EXISTS {s}.recall_terms (
                fid bigint NOT NULL,
                term text NOT NULL,
                df integer NOT NULL,
                PRIMARY KEY (fid, term))""",
            # semantic recall (``memtool.stores.postgres.vectors``): unit vectors per embedder
            f"""CREATE TABLE IF NOT EXISTS {s}.recall_vectors (
                embedder text NOT NULL,
                fid bigint NOT NULL,
                uid integer NOT NULL,
                vec bytea NOT NULL,
                PRIMARY KEY (embedder, fid, uid))""",
            f"CREATE INDEX IF NOT EXISTS recall_vectors_fid ON {s}.recall_vectors (fid)",
            f"""CREATE TABLE IF NOT EXISTS {s}.recall_vector_files (
                embedder text NOT NULL,
                fid bigint NOT NULL,
                upto integer NOT NULL,
                PRIMARY KEY (embedder, fid))""",
            f"CREATE INDEX IF NOT EXISTS recall_vector_files_fid ON {s}.recall_vector_files (fid)",
        ],
        # Version 10: each unit's terms in order (``seq``: the phrase bonus is found there,
        # without reading the unit back and tokenising it). The recall tables are derived
        # data: emptied, so every file is indexed again with its units' terms.
        10: [
            f"ALTER TABLE {s}.recall_units ADD COLUMN IF NOT EXISTS seq text NOT NULL DEFAULT ''",
            f"TRUNCATE {s}.recall_files, {s}.recall_units, {s}.recall_postings, {s}.recall_terms, "
            f"{s}.recall_vectors, {s}.recall_vector_files",
        ],
    }


#: Public view of the migrations for the default schema (documentation and tests).
MIGRATIONS = _migrations("memtool")


def migrate(conn: "psycopg.Connection", s: str) -> None:
    """Create the tables of schema ``s`` or upgrade them to ``SCHEMA_VERSION`` (idempotent)."""
    import psycopg

    try:
        row = conn.execute(f"SELECT version FROM {s}.schema_version").fetchone()
        if row and row[0] == SCHEMA_VERSION:
            return
    except psycopg.errors.UndefinedTable:
        pass
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", [_key(b"memtool schema", s.encode())])
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {s}.schema_version "
            f"(id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)"
        )
        row = conn.execute(f"SELECT version FROM {s}.schema_version").fetchone()
        current = row[0] if row else 0
        if current > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"the memory database has schema version {current}, newer than this "
                f"memtool understands ({SCHEMA_VERSION}); upgrade memtool"
            )
        steps = _migrations(s)
        for version in range(current + 1, SCHEMA_VERSION + 1):
            for ddl in steps[version]:
                conn.execute(ddl)
        conn.execute(
            f"INSERT INTO {s}.schema_version (id, version) VALUES (1, %s) "
            f"ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version",
            [SCHEMA_VERSION],
        )
