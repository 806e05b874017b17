"""A table's agreement of its round in one call to the database (PostgreSQL only).

``tournaments_table_agree(p jsonb)`` does in one statement what a table agreeing its own
meeting of a round needs in the common case (services/event_state.py,
``round_agree_at_table``): claims the request's Idempotency-Key (when ``p`` carries
``claim``), locks the event's row, checks the event still takes the tables' scores, the
meeting is not agreed yet and every one of its boards is in (a live result of this meeting,
with its pairs, that no longer waits for the opponents' confirmation), and only then stores
the meeting's agreement, its audit entry, the event's next change number and the stored
answer. It answers ``{"seq"}``, the event's new change number;
``{"replay": {"status_code", "hash", "response"}}`` when the key is another request's
(committed: the claim waits for it), which the caller replays if the request is the same;
or NULL when it wrote nothing because this is not the common case (a board missing or
unconfirmed, the round agreed already, the event agreed or closed): the caller then goes
the full road (``round_agree``), which answers each case in the players' words.
"""

from django.db import migrations

AGREE = r"""
CREATE OR REPLACE FUNCTION tournaments_table_agree(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
    claimed bigint;
    replay jsonb;
    the_event bigint := (p->>'event')::bigint;
    the_meeting bigint := (p->>'meeting')::bigint;
    waiting text := p->>'unconfirmed';
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
        PERFORM tournaments_table_unclaim(p, claimed);
        RETURN NULL;
    END IF;
    ev_seq := ev_seq + 1;
    UPDATE tournaments_meeting SET agreed_at = (p->>'at')::timestamptz
        WHERE id = the_meeting;
    INSERT INTO tournaments_auditentry SELECT * FROM jsonb_populate_record(
        NULL::tournaments_auditentry, p->'audit' || jsonb_build_object(
            'id', nextval(pg_get_serial_sequence('tournaments_auditentry', 'id'))));
    UPDATE tournaments_event SET seq = ev_seq WHERE id = the_event;
    PERFORM tournaments_table_answer(p, claimed, '{}'::jsonb);
    RETURN jsonb_build_object('seq', ev_seq);
END
$fn$;
"""
DROP_AGREE = "DROP FUNCTION IF EXISTS tournaments_table_agree(jsonb);"


def _on_postgresql(sql: str):
    def run(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)
    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0017_table_enter_function")]

    operations = [
        migrations.RunPython(_on_postgresql(AGREE), _on_postgresql(DROP_AGREE)),
    ]
