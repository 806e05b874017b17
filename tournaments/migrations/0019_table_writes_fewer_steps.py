"""The table's three write functions (migrations 0017 and 0018) in fewer steps, the same
checks and the same rows (PostgreSQL only).

Measured under a room's load, a good part of the database's time went on the steps around
the writes rather than the writes. Now:

- The event's row is locked by the very UPDATE that takes its next change number
  (``UPDATE ... SET seq = seq + 1 ... RETURNING seq``), where a ``SELECT ... FOR UPDATE``
  first locked it and an UPDATE at the end wrote it: one statement and one row version
  fewer. The UPDATE takes the lock as the SELECT did and sees the latest row (read
  committed re-reads it after the wait), and only an event still open to the tables
  (``shut`` lists the statuses that are not) is counted up. When a check under the lock
  then refuses, the number is put back before returning NULL: nothing is written (the
  row lock holders see the same number as before).
- The key's claim is a plain function returning the claim's id, called in an expression;
  the stored answer to replay, when another request holds the key, is read by its own
  function only then. (As a set-returning call in FROM, the claim's result was gathered
  into a table on every call.)
- The statuses are tested with the JSON ``?`` operator on the lists the caller sends,
  where each test unpacked the list into rows.
- The new rows' ids come from their sequences named in the functions (looked up once,
  here), where ``pg_get_serial_sequence`` searched the catalog for them on every write.

Each function still answers as before: ``{"id", "seq"}`` / ``{"seq"}``, a replay, or NULL
with nothing written.
"""

import importlib

from django.db import migrations

_0017 = importlib.import_module("tournaments.migrations.0017_table_enter_function")
_0018 = importlib.import_module("tournaments.migrations.0018_table_agree_function")
_on_postgresql = _0017._on_postgresql

SHARED = r"""
DROP FUNCTION IF EXISTS tournaments_table_claim(jsonb);

-- The request's Idempotency-Key claimed (when p carries `claim`): the claim's id; NULL when
-- another request holds the key (the INSERT waited for it to commit). A key the caller
-- claimed already comes as p->'record'.
CREATE FUNCTION tournaments_table_claim(p jsonb) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
    claimed bigint := (p->>'record')::bigint;
BEGIN
    IF p ? 'claim' THEN
        INSERT INTO tournaments_idempotencyrecord (scope, key, request_hash, created_at)
        VALUES (p#>>'{claim,scope}', p#>>'{claim,key}', p#>>'{claim,hash}',
                (p#>>'{claim,at}')::timestamptz)
        ON CONFLICT (scope, key) DO NOTHING RETURNING id INTO claimed;
    END IF;
    RETURN claimed;
END
$fn$;

-- The answer stored for the key another request holds, to replay: {"replay": {...}}.
CREATE OR REPLACE FUNCTION tournaments_table_replay(p jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $fn$
    SELECT jsonb_build_object('replay', jsonb_build_object(
               'status_code', status_code, 'hash', request_hash, 'response', response))
    FROM tournaments_idempotencyrecord
    WHERE scope = p#>>'{claim,scope}' AND key = p#>>'{claim,key}'
$fn$;

-- A check under the lock refused: the event's change number put back (when the lock took
-- one) and the key given back. Nothing the function did stays.
CREATE OR REPLACE FUNCTION tournaments_table_refuse(p jsonb, claimed bigint,
                                                    the_event bigint, ev_seq bigint)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF ev_seq IS NOT NULL THEN
        UPDATE tournaments_event SET seq = ev_seq - 1 WHERE id = the_event;
    END IF;
    PERFORM tournaments_table_unclaim(p, claimed);
END
$fn$;
"""

# How each function begins: the key claimed (or another request's answer replayed), then
# the event's row locked by taking its next change number, if it is open to the tables.
START = r"""
    claimed := tournaments_table_claim(p);
    IF claimed IS NULL AND p ? 'claim' THEN
        replay := tournaments_table_replay(p);
        IF replay IS NOT NULL THEN
            RETURN replay;  -- the key is another request's: its answer
        END IF;
    END IF;
    UPDATE tournaments_event SET seq = seq + 1
        WHERE id = the_event AND NOT (p->'shut' ? status) RETURNING seq INTO ev_seq;"""

ENTER = r"""
CREATE OR REPLACE FUNCTION tournaments_table_enter(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
    r jsonb := p->'result';
    claimed bigint;
    replay jsonb;
    the_event bigint := (r->>'event_id')::bigint;
    the_meeting bigint := (r->>'meeting_id')::bigint;
    the_board bigint := (r->>'board_id')::bigint;
    board_no integer := (p->>'board')::integer;
    leave boolean := (p->>'leave')::boolean;
    ev_seq bigint;
    new_id bigint;
BEGIN
@START@
    IF ev_seq IS NULL
       OR NOT EXISTS (
            SELECT 1 FROM tournaments_meeting m
            WHERE m.id = the_meeting AND m.section_id = (p->>'section')::bigint
              AND m."table" = (p->>'table')::integer
              AND m.ns_pair_id = (r->>'ns_pair_id')::bigint
              AND m.ew_pair_id = (r->>'ew_pair_id')::bigint
              AND m.boards @> jsonb_build_array(board_no)
              AND (coalesce(m.late_boards, '[]'::jsonb) @> jsonb_build_array(board_no)) = leave
              -- with the director's leave the round does not matter; without it, the round
              -- is not agreed nor later than the one the table is at (its lowest round not
              -- agreed, else its last)
              AND (leave OR (m.agreed_at IS NULL AND m.round <= (
                    SELECT coalesce(min(s.round) FILTER (WHERE s.agreed_at IS NULL),
                                    max(s.round))
                    FROM tournaments_meeting s
                    WHERE s.section_id = m.section_id AND s."table" = m."table"))))
       OR EXISTS (
            SELECT 1 FROM tournaments_irregularity x
            WHERE x.meeting_id = the_meeting AND x.board_id = the_board
              AND p->'open' ? x.status)
       OR EXISTS (
            SELECT 1 FROM tournaments_result y
            WHERE y.board_id = the_board AND y.ns_pair_id = (r->>'ns_pair_id')::bigint
              AND y.ew_pair_id = (r->>'ew_pair_id')::bigint AND NOT y.voided)
    THEN
        PERFORM tournaments_table_refuse(p, claimed, the_event, ev_seq);
        RETURN NULL;
    END IF;
    new_id := nextval('@RESULT_SEQ@'::regclass);
    INSERT INTO tournaments_result SELECT * FROM jsonb_populate_record(
        NULL::tournaments_result, r || jsonb_build_object('id', new_id, 'seq', ev_seq));
    INSERT INTO tournaments_auditentry SELECT * FROM jsonb_populate_record(
        NULL::tournaments_auditentry, p->'audit' || jsonb_build_object(
            'id', nextval('@AUDIT_SEQ@'::regclass),
            'result_id', new_id));
    IF leave THEN
        UPDATE tournaments_meeting SET late_boards = (
            SELECT coalesce(jsonb_agg(t.x ORDER BY t.n), '[]'::jsonb)
            FROM jsonb_array_elements(late_boards) WITH ORDINALITY AS t(x, n)
            WHERE t.x <> to_jsonb(board_no))
        WHERE id = the_meeting;
    END IF;
    PERFORM tournaments_table_answer(p, claimed, jsonb_build_object('id', new_id, 'seq', ev_seq));
    RETURN jsonb_build_object('id', new_id, 'seq', ev_seq);
END
$fn$;
""".replace("@START@", START.strip("\n"))

CONFIRM = r"""
CREATE OR REPLACE FUNCTION tournaments_table_confirm(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
    claimed bigint;
    replay jsonb;
    the_event bigint := (p->>'event')::bigint;
    the_result bigint := (p->>'result')::bigint;
    ev_seq bigint;
BEGIN
@START@
    IF ev_seq IS NULL
       OR NOT EXISTS (
            SELECT 1 FROM tournaments_result r
            JOIN tournaments_board b ON b.id = r.board_id
            JOIN tournaments_meeting m ON m.id = r.meeting_id
            WHERE r.id = the_result AND r.event_id = the_event AND NOT r.voided
              AND r.status = p->>'from' AND r.updated_at = (p->>'updated_at')::timestamptz
              AND m.section_id = (p->>'section')::bigint AND m."table" = (p->>'table')::integer
              AND (r.late_play
                   OR coalesce(m.late_boards, '[]'::jsonb) @> jsonb_build_array(b.number)
                   OR (m.agreed_at IS NULL AND m.round <= (
                        SELECT coalesce(min(s.round) FILTER (WHERE s.agreed_at IS NULL),
                                        max(s.round))
                        FROM tournaments_meeting s
                        WHERE s.section_id = m.section_id AND s."table" = m."table")))
              AND NOT EXISTS (
                    SELECT 1 FROM tournaments_irregularity x
                    WHERE x.meeting_id = m.id AND x.board_id = r.board_id
                      AND p->'open' ? x.status))
    THEN
        PERFORM tournaments_table_refuse(p, claimed, the_event, ev_seq);
        RETURN NULL;
    END IF;
    UPDATE tournaments_result
    SET status = p->>'to', confirmed_by = p->>'by', seq = ev_seq,
        updated_at = (p->>'at')::timestamptz
    WHERE id = the_result;
    INSERT INTO tournaments_auditentry SELECT * FROM jsonb_populate_record(
        NULL::tournaments_auditentry, p->'audit' || jsonb_build_object(
            'id', nextval('@AUDIT_SEQ@'::regclass)));
    PERFORM tournaments_table_answer(p, claimed, jsonb_build_object('seq', ev_seq));
    RETURN jsonb_build_object('seq', ev_seq);
END
$fn$;
""".replace("@START@", START.strip("\n"))

AGREE = r"""
CREATE OR REPLACE FUNCTION tournaments_table_agree(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
    claimed bigint;
    replay jsonb;
    the_event bigint := (p->>'event')::bigint;
    the_meeting bigint := (p->>'meeting')::bigint;
    waiting text := p->>'unconfirmed';
    ev_seq bigint;
BEGIN
@START@
    IF ev_seq IS NULL
       OR NOT EXISTS (
            SELECT 1 FROM tournaments_meeting m
            WHERE m.id = the_meeting AND m.section_id = (p->>'section')::bigint
              AND m."table" = (p->>'table')::integer AND m.round = (p->>'round')::integer
              AND m.agreed_at IS NULL
              -- every board has a live result of this meeting, with its pairs, that the
              -- opponents confirmed (or the director entered)
              AND NOT EXISTS (
                    SELECT 1 FROM jsonb_array_elements_text(m.boards) AS n(board)
                    WHERE NOT EXISTS (
                        SELECT 1 FROM tournaments_result y
                        JOIN tournaments_board b ON b.id = y.board_id
                        WHERE y.meeting_id = m.id AND y.event_id = the_event AND NOT y.voided
                          AND y.ns_pair_id = m.ns_pair_id AND y.ew_pair_id = m.ew_pair_id
                          AND b.number = n.board::integer AND y.status <> waiting))
              -- as many live results of the meeting as boards, none still unconfirmed
              AND (SELECT count(*) >= jsonb_array_length(m.boards)
                          AND NOT coalesce(bool_or(y.status = waiting), false)
                   FROM tournaments_result y WHERE y.meeting_id = m.id AND NOT y.voided))
    THEN
        PERFORM tournaments_table_refuse(p, claimed, the_event, ev_seq);
        RETURN NULL;
    END IF;
    UPDATE tournaments_meeting SET agreed_at = (p->>'at')::timestamptz
        WHERE id = the_meeting;
    INSERT INTO tournaments_auditentry SELECT * FROM jsonb_populate_record(
        NULL::tournaments_auditentry, p->'audit' || jsonb_build_object(
            'id', nextval('@AUDIT_SEQ@'::regclass)));
    PERFORM tournaments_table_answer(p, claimed, '{}'::jsonb);
    RETURN jsonb_build_object('seq', ev_seq);
END
$fn$;
""".replace("@START@", START.strip("\n"))

# Back to 0017's and 0018's: their claim returns (claimed, replay), so this one goes first.
BACK = ("DROP FUNCTION IF EXISTS tournaments_table_claim(jsonb); "
        "DROP FUNCTION IF EXISTS tournaments_table_replay(jsonb); "
        "DROP FUNCTION IF EXISTS tournaments_table_refuse(jsonb, bigint, bigint, bigint);")


def _create(apps, schema_editor) -> None:
    """The functions, with the ids' sequences of this database put in by name."""
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence('tournaments_result', 'id'), "
                       "pg_get_serial_sequence('tournaments_auditentry', 'id')")
        result_seq, audit_seq = cursor.fetchone()
    sql = SHARED + ENTER + CONFIRM + AGREE
    schema_editor.execute(sql.replace("@RESULT_SEQ@", result_seq)
                          .replace("@AUDIT_SEQ@", audit_seq))


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0018_table_agree_function")]

    operations = [
        migrations.RunPython(
            _create,
            _on_postgresql(BACK + _0017.SHARED + _0017.ENTER + _0017.CONFIRM + _0018.AGREE)),
    ]
