"""A table's result entry, and the opponents' confirm, each in one call to the database
(PostgreSQL only).

``tournaments_table_enter(p jsonb)`` does in one statement what the entry's common case
needs under the event's row lock (services/results.py, ``result_enter_at_table``): claims
the request's Idempotency-Key (when ``p`` carries ``claim``), locks the event's row, checks
the table may enter the board now, and only then stores the result, its audit entry, the
event's next change number, the late-play leave used up and the stored answer. The rows
come as JSON in the tables' own shape (``jsonb_populate_record``), so the function names
no column but those it checks. It answers ``{"id", "seq"}`` of the stored result;
``{"replay": {"status_code", "hash", "response"}}`` when the key is another request's
(committed: the claim waits for it), which the caller replays if the request is the same;
or NULL when it wrote nothing because this is not the common case (the caller then goes
the full road, which answers each case in the players' words). Each statement inside takes a
fresh snapshot (read committed), so the checks after the lock see every write committed
before it.
"""

from django.db import migrations

# What the table's write functions share: the key's claim (or, for a key another request
# holds, committed, its stored answer to replay), giving it back when nothing is written,
# and the stored answer with what the write decided (`fills`: the new id, the change
# number). A key already claimed by the caller comes as p->'record'.
SHARED = r"""
CREATE OR REPLACE FUNCTION tournaments_table_claim(p jsonb, OUT claimed bigint,
                                                   OUT replay jsonb)
LANGUAGE plpgsql AS $fn$
BEGIN
    claimed := (p->>'record')::bigint;
    IF p ? 'claim' THEN
        INSERT INTO tournaments_idempotencyrecord (scope, key, request_hash, created_at)
        VALUES (p#>>'{claim,scope}', p#>>'{claim,key}', p#>>'{claim,hash}',
                (p#>>'{claim,at}')::timestamptz)
        ON CONFLICT (scope, key) DO NOTHING RETURNING id INTO claimed;
        IF claimed IS NULL THEN
            -- the INSERT waited for the other request to commit: its answer
            replay := (SELECT jsonb_build_object('replay', jsonb_build_object(
                          'status_code', status_code, 'hash', request_hash,
                          'response', response))
                       FROM tournaments_idempotencyrecord
                       WHERE scope = p#>>'{claim,scope}' AND key = p#>>'{claim,key}');
        END IF;
    END IF;
END
$fn$;

CREATE OR REPLACE FUNCTION tournaments_table_unclaim(p jsonb, claimed bigint) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF p ? 'claim' THEN
        DELETE FROM tournaments_idempotencyrecord WHERE id = claimed;
    END IF;
END
$fn$;

CREATE OR REPLACE FUNCTION tournaments_table_answer(p jsonb, claimed bigint, fills jsonb)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF claimed IS NOT NULL AND p ? 'answer' THEN
        UPDATE tournaments_idempotencyrecord
        SET status_code = (p->>'status_code')::integer, response = (p->'answer') || fills
        WHERE id = claimed;
    END IF;
END
$fn$;
"""
DROP_SHARED = ("DROP FUNCTION IF EXISTS tournaments_table_claim(jsonb); "
               "DROP FUNCTION IF EXISTS tournaments_table_unclaim(jsonb, bigint); "
               "DROP FUNCTION IF EXISTS tournaments_table_answer(jsonb, bigint, jsonb);")

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
    ev_status text;
    ev_seq bigint;
    new_id bigint;
BEGIN
    SELECT c.claimed, c.replay INTO claimed, replay FROM tournaments_table_claim(p) c;
    IF replay IS NOT NULL THEN
        RETURN replay;  -- the key is another request's: its answer
    END IF;
    SELECT status, seq INTO ev_status, ev_seq
        FROM tournaments_event WHERE id = the_event FOR UPDATE;
    IF ev_status IS NULL OR ev_status IN (SELECT jsonb_array_elements_text(p->'shut'))
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
              AND x.status IN (SELECT jsonb_array_elements_text(p->'open')))
       OR EXISTS (
            SELECT 1 FROM tournaments_result y
            WHERE y.board_id = the_board AND y.ns_pair_id = (r->>'ns_pair_id')::bigint
              AND y.ew_pair_id = (r->>'ew_pair_id')::bigint AND NOT y.voided)
    THEN
        PERFORM tournaments_table_unclaim(p, claimed);
        RETURN NULL;
    END IF;
    new_id := nextval(pg_get_serial_sequence('tournaments_result', 'id'));
    ev_seq := ev_seq + 1;
    INSERT INTO tournaments_result SELECT * FROM jsonb_populate_record(
        NULL::tournaments_result, r || jsonb_build_object('id', new_id, 'seq', ev_seq));
    INSERT INTO tournaments_auditentry SELECT * FROM jsonb_populate_record(
        NULL::tournaments_auditentry, p->'audit' || jsonb_build_object(
            'id', nextval(pg_get_serial_sequence('tournaments_auditentry', 'id')),
            'result_id', new_id));
    UPDATE tournaments_event SET seq = ev_seq WHERE id = the_event;
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
"""
DROP_ENTER = "DROP FUNCTION IF EXISTS tournaments_table_enter(jsonb);"

# The opponents' confirm of a result the table entered (services.result_confirm_at_table):
# the same claim, lock and answers; under the lock the result must be as it was read
# (entered, not removed, not changed since: its updated_at), of the table's own meeting,
# in a round it may still write (the round it is at or an earlier one not agreed, or a
# late result or board on the director's leave), with no open report on the board.
CONFIRM = r"""
CREATE OR REPLACE FUNCTION tournaments_table_confirm(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
    claimed bigint;
    replay jsonb;
    the_event bigint := (p->>'event')::bigint;
    the_result bigint := (p->>'result')::bigint;
    ev_status text;
    ev_seq bigint;
BEGIN
    SELECT c.claimed, c.replay INTO claimed, replay FROM tournaments_table_claim(p) c;
    IF replay IS NOT NULL THEN
        RETURN replay;  -- the key is another request's: its answer
    END IF;
    SELECT status, seq INTO ev_status, ev_seq
        FROM tournaments_event WHERE id = the_event FOR UPDATE;
    IF ev_status IS NULL OR ev_status IN (SELECT jsonb_array_elements_text(p->'shut'))
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
                      AND x.status IN (SELECT jsonb_array_elements_text(p->'open'))))
    THEN
        PERFORM tournaments_table_unclaim(p, claimed);
        RETURN NULL;
    END IF;
    ev_seq := ev_seq + 1;
    UPDATE tournaments_result
    SET status = p->>'to', confirmed_by = p->>'by', seq = ev_seq,
        updated_at = (p->>'at')::timestamptz
    WHERE id = the_result;
    INSERT INTO tournaments_auditentry SELECT * FROM jsonb_populate_record(
        NULL::tournaments_auditentry, p->'audit' || jsonb_build_object(
            'id', nextval(pg_get_serial_sequence('tournaments_auditentry', 'id'))));
    UPDATE tournaments_event SET seq = ev_seq WHERE id = the_event;
    PERFORM tournaments_table_answer(p, claimed, jsonb_build_object('seq', ev_seq));
    RETURN jsonb_build_object('seq', ev_seq);
END
$fn$;
"""
DROP_CONFIRM = "DROP FUNCTION IF EXISTS tournaments_table_confirm(jsonb);"


def _on_postgresql(sql: str):
    def run(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)
    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_reportjob_one_owner")]

    operations = [
        migrations.RunPython(_on_postgresql(SHARED), _on_postgresql(DROP_SHARED)),
        migrations.RunPython(_on_postgresql(ENTER), _on_postgresql(DROP_ENTER)),
        migrations.RunPython(_on_postgresql(CONFIRM), _on_postgresql(DROP_CONFIRM)),
    ]
