"""Irregular boards: a hand with the wrong number of cards (Duplicate Law B).

What the law does depends on when the error is found (``Irregularity.stage``):

- ``original`` (before or during the original play), B(1): a new deal
  (`irregularity_new_deal`), while the board has no result anywhere;
- ``before-overplay`` (when the cards are taken up for overplay), B(2): the board goes
  back to the table it came from (`irregularity_send_back`) and is put right there
  (`irregularity_rectified`); the table that found it waits;
- ``overplay`` (after the overplay began), B(3): at two tables a new deal (both results
  void, `irregularity_new_deal`) or, with no time, the board cancelled at both
  (`irregularity_cancel`); at more tables the hands are rectified and passed on, and the
  table that found it gets an average or a fouled board (`irregularity_rule`).

A report may be withdrawn (the cards were right) and a decision undone
(`irregularity_undo`) while nothing has happened since that it would overturn. Every step
is audited with its law; the audit entries carry the board (``after["board"]``) so the
audit page finds them by board.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from boards.dealing import deal_board
from scoring.engine import SEATS, deal_from_north, parse_deal, partner

from .. import seam, selectors
from ..models import AuditEntry, Board, Event, Irregularity, Meeting, Result
from .base import (
    Actor,
    Forbidden,
    ServiceError,
    _audit,
    _board,
    _lock_event,
    _require_open,
    _require_reason,
    _save_change,
)
from .results import (
    NOT_PLAYED,
    _audit_undo,
    _ensure_free,
    _ruling_fields,
    board_cancel,
    ruling_award,
)

Stage = Irregularity.Stage
Status = Irregularity.Status

LAW = {
    Stage.ORIGINAL: "Duplicate Law B(1)",
    Stage.BEFORE_OVERPLAY: "Duplicate Law B(2)",
    Stage.OVERPLAY: selectors.LAW_B_RULING,  # begins every ruling's reason
}
OPEN = (Status.REPORTED, Status.SENT_BACK)
NO_RECORD = "(no hand record)"  # a new deal's "before" when the board had no hand record
_SUITS = "SHDC"
_RANKS = "AKQJT98765432"


# --- reading what the table found -------------------------------------------------------------


def card_code(text: str) -> str:
    """A card as typed ("S5", "h10", "10h", "DT") as its code: suit then rank ("S5", "HT");
    "" for nothing; ServiceError for what is not a card."""
    text = (text or "").strip().upper().replace("10", "T").replace(" ", "")
    if not text:
        return ""
    if len(text) == 2 and text[1] in _SUITS and text[0] in _RANKS:
        text = text[1] + text[0]
    if len(text) != 2 or text[0] not in _SUITS or text[1] not in _RANKS:
        raise ServiceError("name the card as its suit and rank, like S5 (five of spades) or "
                           "HT (ten of hearts)", field="misplaced_card")
    return text


def card_owner(deal: str, card: str) -> str | None:
    """The seat that holds `card` in the hand record (None without a record)."""
    if not deal or not card:
        return None
    hands = parse_deal(deal)
    for seat, hand in hands.items():
        if card[1] in hand.get(card[0], ""):
            return seat
    return None


def _seat(value: str, field: str) -> str:
    value = (value or "").strip().upper()[:1]
    if value and value not in SEATS:
        raise ServiceError("a seat is N, E, S or W", field=field)
    return value


def seats_known(irregularity: Irregularity) -> bool:
    """Does the director know who was short and who had the surplus?"""
    return bool(irregularity.short_seat and irregularity.surplus_seat)


def _derive(board: Board, short: str, surplus: str, card: str) -> tuple[str, str]:
    """The short hand and the hand with the surplus, from what the table said and, when the
    card found out of place and the hand it was in are named, from the hand record: the
    card belongs (by the record) to the short hand; the hand it was found in had one too
    many."""
    owner = card_owner(board.deal, card)
    if owner is None:
        return short, surplus
    if surplus and owner == surplus:
        raise ServiceError(f"by the hand record that card belongs to {_name(owner)}'s hand, "
                           "where it was found: check the card", field="misplaced_card")
    if short and short != owner:
        raise ServiceError(f"by the hand record that card belongs to {_name(owner)}, so "
                           f"{_name(owner)} is the short hand, not {_name(short)}",
                           field="short_seat")
    return owner, surplus


def _name(seat: str) -> str:
    return {"N": "North", "E": "East", "S": "South", "W": "West"}[seat]


def board_meetings(event: Event, number: int) -> list[Meeting]:
    """Every meeting that plays board `number`, in round and table order."""
    return [m for m in Meeting.objects.filter(section__event=event)
            .select_related("section", "ns_pair", "ew_pair").order_by("round", "table")
            if number in m.boards]


def came_from(meeting: Meeting, number: int) -> Meeting | None:
    """The meeting the board came from: the one of the section that played it in the latest
    round before `meeting`'s."""
    earlier = [m for m in Meeting.objects.filter(section=meeting.section, round__lt=meeting.round)
               .select_related("ns_pair", "ew_pair").order_by("-round", "table")
               if number in m.boards]
    return earlier[0] if earlier else None


def ruling_given(*, event: Event, board: int, ns: int, ew: int, kind: str, actor: Actor,
                 offending: str = "", reason: str = "", meeting: Meeting | None = None
                 ) -> Result:
    """The director's ruling on a meeting's board from the console's Ruling page or the
    API (ruling_award), held to Duplicate Law B's timing as a report is: an average or a
    fouled board (B(3)) is for a board found wrong after the overplay began, so the board
    was played at another table before (in an earlier round of the movement, or with a
    result there). Found at its first play it is a new deal (B(1))."""
    if actor.is_director:
        reason = _require_reason(reason, "a ruling")
    _ruling_fields(event, kind, offending)  # what is wrong with the ruling, said first
    if kind in ("average", "fouled") and meeting is not None and not _overplay_begun(
            meeting, board):
        raise ServiceError(
            f"board {board} has not been played at another table before table "
            f"{meeting.table} in round {meeting.round}: an average or a fouled board "
            "(Duplicate Law B(3)) is for a board found wrong after the overplay began. Found "
            "at its first play, it is a new deal (Duplicate Law B(1)): report it under "
            "Irregular boards", field="ruling")
    return ruling_award(event=event, board=board, ns=ns, ew=ew, kind=kind, actor=actor,
                        offending=offending, reason=reason, meeting=meeting)


def _overplay_begun(meeting: Meeting, board: int) -> bool:
    return came_from(meeting, board) is not None or (
        Result.objects.filter(board__event_id=meeting.section.event_id, board__number=board,
                              voided=False, ruling__in=("", "assigned"))
        .exclude(meeting=meeting).exists())


def _snapshot(irregularity: Irregularity) -> dict:
    """What the audit keeps of an irregularity (the board first, so the page finds it)."""
    meeting = irregularity.meeting
    data = {"board": irregularity.board.number, "law": LAW[irregularity.stage],
            "stage": irregularity.stage, "status": irregularity.status}
    if meeting is not None:
        data.update(section=meeting.section.name, table=meeting.table, round=meeting.round)
    for key in ("short_seat", "surplus_seat", "misplaced_card", "outcome"):
        if getattr(irregularity, key):
            data[key] = getattr(irregularity, key)
    if irregularity.sent_to_table is not None:
        data.update(sent_to_table=irregularity.sent_to_table,
                    sent_to_round=irregularity.sent_to_round)
    return data


def _locked(irregularity: Irregularity) -> tuple[Event, Irregularity]:
    event = _lock_event(irregularity.event_id)
    _require_open(event)
    row = (Irregularity.objects.select_for_update(of=("self",))
           .select_related("board", "meeting__section", "meeting__ns_pair", "meeting__ew_pair")
           .get(pk=irregularity.pk))
    return event, row


def _law_reason(law: str, reason: str, what: str) -> str:
    reason = (reason or "").strip()
    return f"{law}: {what}" + (f". {reason}" if reason else "")


def _require_director(actor: Actor) -> None:
    if not actor.directs:
        raise Forbidden("only the director decides what happens to an irregular board")


def _require_stage(irregularity: Irregularity, *stages: str) -> None:
    if irregularity.status not in OPEN:
        raise ServiceError(f"this report is {irregularity.get_status_display().lower()} "
                           "already", field="irregularity")
    if irregularity.stage not in stages:
        raise ServiceError(f"found {irregularity.get_stage_display().lower()}: "
                           f"{LAW[irregularity.stage]} applies, not this step", field="stage")


def _require_not_played(meeting: Meeting, board: Board, event: Event) -> None:
    """B(2) is for cards found wrong when taken up for overplay, before it begins: not for
    a board the table has played (a result between its pairs, other than "not played")."""
    played = (Result.objects.filter(board=board, ns_pair_id=meeting.ns_pair_id,
                                    ew_pair_id=meeting.ew_pair_id, voided=False)
              .exclude(ruling=NOT_PLAYED).select_related("board").first())
    if played is not None:
        raise ServiceError(
            f"board {board.number} has been played at table {meeting.table} in round "
            f"{meeting.round} already ({selectors.describe(played, is_whist=event.is_whist)}): "
            "the overplay had begun, so this is Duplicate Law B(3), not B(2)", field="stage")


def _close(irregularity: Irregularity, outcome: str) -> None:
    irregularity.status = Status.RESOLVED
    irregularity.outcome = outcome
    irregularity.resolved_at = timezone.now()


# --- report and withdraw -----------------------------------------------------------------------


@transaction.atomic
def irregularity_report(
    *,
    event: Event,
    board: int,
    stage: str,
    actor: Actor,
    meeting: Meeting | None = None,
    short_seat: str = "",
    surplus_seat: str = "",
    misplaced_card: str = "",
    note: str = "",
) -> Irregularity:
    """A table (for a board of the round it is at) or the director (any board, any meeting)
    reports a hand with the wrong number of cards, and when it was found."""
    if stage not in Stage.values:
        raise ServiceError("say when it was found: before or during the original play, when "
                           "the cards were taken up for overplay, or after the overplay began",
                           field="stage")
    short = _seat(short_seat, "short_seat")
    surplus = _seat(surplus_seat, "surplus_seat")
    if short and short == surplus:
        raise ServiceError("the short hand and the hand with the surplus are two different "
                           "hands", field="surplus_seat")
    card = card_code(misplaced_card)
    if card and not surplus:
        raise ServiceError("say which hand the card was found in", field="surplus_seat")
    board_row = _board(event, board)
    short, surplus = _derive(board_row, short, surplus, card)
    if meeting is not None and board not in meeting.boards:
        raise ServiceError(f"board {board} is not played at table {meeting.table} in round "
                           f"{meeting.round}", field="board")
    if actor.is_table:
        if meeting is None or meeting.section_id != actor.section_id \
                or meeting.table != actor.table:
            raise Forbidden("a table can only report the boards it plays")
    elif not actor.directs:
        raise Forbidden("only a table or the director reports an irregular board")
    locked = _lock_event(event.pk)
    _require_open(locked)
    if actor.is_table:
        seated = selectors.seated_meeting(actor.section_id, actor.table)
        if seated is None or seated.pk != meeting.pk:
            raise Forbidden("a table reports a board of the round it is playing now; for "
                            "another round ask the director")
    if stage == Stage.BEFORE_OVERPLAY and meeting is not None:
        _require_not_played(meeting, board_row, locked)
    if Irregularity.objects.filter(board=board_row, status__in=OPEN,
                                   meeting=meeting).exists():
        raise ServiceError(f"board {board} is reported already: the director is on the way",
                           field="board")
    irregularity = Irregularity.objects.create(
        event=locked, board=board_row, meeting=meeting, stage=stage, short_seat=short,
        surplus_seat=surplus, misplaced_card=card, reported_by=actor.label[:80],
        note=(note or "").strip()[:500])
    _audit(event=locked, actor=actor, action="irregular board", after=_snapshot(irregularity),
           reason=_law_reason(LAW[stage], note, "a hand with the wrong number of cards"))
    return irregularity


@transaction.atomic
def irregularity_withdraw(*, irregularity: Irregularity, actor: Actor, reason: str = ""
                          ) -> Irregularity:
    """The cards were right after all: the report is withdrawn (while nothing was decided)."""
    event, row = _locked(irregularity)
    if actor.is_table:
        if row.status != Status.REPORTED or row.meeting is None \
                or row.meeting.table != actor.table or row.meeting.section_id != actor.section_id:
            raise Forbidden("only the table that reported it may withdraw it, before the "
                            "director decides")
    elif not actor.directs:
        raise Forbidden("only the director withdraws a report")
    if row.status not in OPEN:
        raise ServiceError("only an open report can be withdrawn", field="irregularity")
    before = _snapshot(row)
    row.status = Status.WITHDRAWN
    row.sent_to_table = row.sent_to_round = None
    row.resolved_at = timezone.now()
    row.save()
    _audit(event=event, actor=actor, action="irregular board", before=before,
           after=_snapshot(row),
           reason=_law_reason(LAW[row.stage], reason, "withdrawn, the cards were right"))
    return row


# --- B(1) and B(3) at two tables: a new deal -------------------------------------------------


def _new_deal_text(deal: str, rng: random.Random | None) -> str:
    if not (deal or "").strip():
        return deal_board(rng)
    try:
        hands = parse_deal(deal.strip())
    except ValueError as exc:
        raise ServiceError(f"the new deal: {exc}", field="deal") from None
    if len(hands) != 4 or any(not any(hand.values()) for hand in hands.values()):
        raise ServiceError("the new deal must give all four hands", field="deal")
    return deal_from_north(hands)


@transaction.atomic
def irregularity_new_deal(
    *,
    irregularity: Irregularity,
    actor: Actor,
    deal: str = "",
    by_hand: bool = False,
    reason: str = "",
    rng: random.Random | None = None,
) -> Irregularity:
    """A new deal: B(1) (found before or during the original play, while the board has no
    result anywhere), or B(3) in two-table duplicate (both results void). `deal` is the
    new deal as PBN; blank deals it (boards.dealing, the system's secure shuffle), and the
    board must then be made up from it. `by_hand`: the table re-deals the cards by hand,
    so nobody knows the new hands: the board keeps no deal (no hand record is published,
    the tables give the honours, Law 3). The old deal stays in the audit; honours now come
    from the new one."""
    _require_director(actor)
    if by_hand and (deal or "").strip():
        raise ServiceError("a deal re-dealt by hand at the table has no hands to give: leave "
                           "the deal blank, or say it was dealt here", field="deal")
    new = "" if by_hand else _new_deal_text(deal, rng)
    dealt = "by hand" if by_hand else ("as given" if (deal or "").strip() else "here")
    event, row = _locked(irregularity)
    _require_stage(row, Stage.ORIGINAL, Stage.OVERPLAY)
    board = Board.objects.select_for_update().get(pk=row.board_id)
    law = LAW[row.stage]
    results = list(Result.objects.select_for_update(of=("self",))
                   .filter(board=board, voided=False).select_related("ns_pair", "ew_pair"))
    if row.stage == Stage.ORIGINAL:
        if results:
            raise ServiceError(
                f"board {board.number} has results already, so this is not a new deal under "
                "Duplicate Law B(1): if the cards were wrong when taken up for overplay, "
                "report it as found then (Duplicate Law B(2)) or after the overplay began "
                "(Duplicate Law B(3))", field="stage")
    else:
        tables = board_meetings(event, board.number)
        if len(tables) != 2:
            raise ServiceError(
                f"board {board.number} is played at {len(tables)} tables: a new deal under "
                "Duplicate Law B(3) is for two-table duplicate; rectify the hands and rule "
                "average or fouled at the table that found it", field="stage")
    voided = []
    for result in results:
        before = seam.snapshot(result)
        result.voided = True
        _save_change(result, event=event, actor=actor, action="void", before=before,
                     reason=_law_reason(law, reason, "a new deal: both tables play it again"))
        voided.append(result.pk)
    old = board.deal
    board.deal = new
    board.save(update_fields=["deal"])
    leave = []
    if row.stage == Stage.OVERPLAY:
        # Both tables play the new deal, whatever round they are at now (an agreed round
        # too): each has the director's leave to play it late and enter it (services.late).
        for m in Meeting.objects.select_for_update().filter(pk__in=[t.pk for t in tables]):
            if board.number not in (m.late_boards or []):
                m.late_boards = [*(m.late_boards or []), board.number]
                m.save(update_fields=["late_boards"])
            leave.append(f"round {m.round} table {m.table}")
    before = _snapshot(row)
    _close(row, "new-deal")
    row.save()
    after = _snapshot(row)
    # A deal re-dealt by hand has no hands to keep: it is no "new deal" of the board's deal
    # history (whose entries each give the hands), but the report's decision, which the
    # undo finds by its outcome all the same (_new_deal_decision).
    _audit(event=event, actor=actor, action="irregular board" if by_hand else "new deal",
           before={**before, "deal": old or NO_RECORD},
           after={**after, "deal": new, "dealt": dealt, "voided": voided,
                  **({"leave to play late": leave} if leave else {})},
           reason=_law_reason(law, reason, f"board {board.number} re-dealt"
                              + (" at the table by hand" if by_hand else "")))
    return row


@transaction.atomic
def irregularity_cancel(*, irregularity: Irregularity, actor: Actor, reason: str = ""
                        ) -> Irregularity:
    """B(3) in two-table duplicate with no time for the new deal: the board is cancelled at
    both tables (services.board_cancel)."""
    _require_director(actor)
    event, row = _locked(irregularity)
    _require_stage(row, Stage.OVERPLAY)
    if len(board_meetings(event, row.board.number)) != 2:
        raise ServiceError("cancelling at both tables is for two-table duplicate: rule "
                           "average or fouled at the table that found it", field="stage")
    board_cancel(event=event, board=row.board.number, actor=actor,
                 reason=_law_reason(LAW[Stage.OVERPLAY], reason or "no time for a new deal",
                                    "new deal in two-table duplicate, cancelled at both tables"))
    before = _snapshot(row)
    _close(row, "cancelled")
    row.save()
    _audit(event=event, actor=actor, action="irregular board", before=before,
           after=_snapshot(row),
           reason=_law_reason(LAW[Stage.OVERPLAY], reason, "cancelled at both tables"))
    return row


# --- B(2): back to the table it came from ----------------------------------------------------


@transaction.atomic
def irregularity_send_back(*, irregularity: Irregularity, actor: Actor, reason: str = ""
                           ) -> Irregularity:
    """B(2): the board goes back to the table it came from, to be put right there; the
    table that found it waits for it."""
    _require_director(actor)
    event, row = _locked(irregularity)
    _require_stage(row, Stage.BEFORE_OVERPLAY)
    if row.status != Status.REPORTED:
        raise ServiceError("this board has been sent back already", field="irregularity")
    if row.meeting is None:
        raise ServiceError("say which table found it (its table and round): the board goes "
                           "back to the table it came from", field="meeting")
    _require_not_played(row.meeting, row.board, event)
    origin = came_from(row.meeting, row.board.number)
    if origin is None:
        raise ServiceError(
            f"board {row.board.number} was not played at any table in an earlier round, so "
            "there is no table to send it back to: if it has not been played yet, it is a new "
            "deal (Duplicate Law B(1))", field="stage")
    before = _snapshot(row)
    row.status = Status.SENT_BACK
    row.sent_to_table, row.sent_to_round = origin.table, origin.round
    row.save()
    _audit(event=event, actor=actor, action="irregular board", before=before,
           after=_snapshot(row),
           reason=_law_reason(LAW[Stage.BEFORE_OVERPLAY], reason,
                              f"sent back to table {origin.table} (round {origin.round}) to "
                              "be rectified"))
    return row


@transaction.atomic
def irregularity_rectified(*, irregularity: Irregularity, actor: Actor, reason: str = ""
                           ) -> Irregularity:
    """B(2): the table it went back to has put it right; the table that found it plays it."""
    event, row = _locked(irregularity)
    if actor.is_table:
        tables = {row.sent_to_table, row.meeting.table if row.meeting else None}
        section = row.meeting.section_id if row.meeting else None
        if actor.section_id != section or actor.table not in tables:
            raise Forbidden("only the director, or the tables the board went between, mark "
                            "it rectified")
    elif not actor.directs:
        raise Forbidden("only the director marks a board rectified")
    if row.status != Status.SENT_BACK:
        raise ServiceError("only a board sent back can be marked rectified",
                           field="irregularity")
    before = _snapshot(row)
    _close(row, "rectified")
    row.save()
    _audit(event=event, actor=actor, action="irregular board", before=before,
           after=_snapshot(row),
           reason=_law_reason(LAW[Stage.BEFORE_OVERPLAY], reason,
                              f"rectified at table {row.sent_to_table}"))
    return row


# --- B(3) at more than two tables: average or fouled ------------------------------------------


def ruling_for(short: str, surplus: str) -> tuple[str, str]:
    """B(3): (kind, offending side). The short hand's adversary had the surplus: average;
    its partner: fouled, the short hand's side at fault."""
    side = "ns" if short in "NS" else "ew"
    if partner(short) == surplus:
        return "fouled", side
    return "average", ""


@transaction.atomic
def irregularity_rule(
    *,
    irregularity: Irregularity,
    actor: Actor,
    short_seat: str = "",
    surplus_seat: str = "",
    reason: str = "",
) -> Irregularity:
    """B(3) at more than two tables: the hands are rectified and passed on without overplay
    at the table that found it, which gets an average (the short hand's adversary had the
    surplus) or a fouled board (its partner had it). The seats come from the report (and
    the hand record); the director names them when they are not known."""
    _require_director(actor)
    current = Irregularity.objects.select_related("board", "meeting").get(pk=irregularity.pk)
    short = _seat(short_seat, "short_seat") or current.short_seat
    surplus = _seat(surplus_seat, "surplus_seat") or current.surplus_seat
    if not (short and surplus):
        raise ServiceError("who was short, and which hand had the surplus? The hand record "
                           "cannot tell: name both seats", field="short_seat")
    if short == surplus:
        raise ServiceError("the short hand and the hand with the surplus are two different "
                           "hands", field="surplus_seat")
    event, row = _locked(irregularity)
    _require_stage(row, Stage.OVERPLAY)
    if row.meeting is None:
        raise ServiceError("say which table found it: the ruling is for that table",
                           field="meeting")
    if len(board_meetings(event, row.board.number)) <= 2:
        raise ServiceError("in two-table duplicate Duplicate Law B(3) gives a new deal: "
                           "re-deal it (or cancel it at both tables)", field="stage")
    kind, offending = ruling_for(short, surplus)
    m = row.meeting
    what = (f"{_name(short)} short, {_name(surplus)} with the surplus: "
            + ("average for both pairs" if kind == "average"
               else f"fouled, {'N–S' if offending == 'ns' else 'E–W'} at fault"))
    result = ruling_award(event=event, board=row.board.number, ns=m.ns_pair.number,
                          ew=m.ew_pair.number, kind=kind, offending=offending, actor=actor,
                          meeting=m, reason=_law_reason(LAW[Stage.OVERPLAY], reason, what))
    before = _snapshot(row)
    row.short_seat, row.surplus_seat = short, surplus
    _close(row, kind)
    row.save()
    _audit(event=event, actor=actor, action="irregular board", before=before,
           after={**_snapshot(row), "result": result.pk},
           reason=_law_reason(LAW[Stage.OVERPLAY], reason, what))
    return row


# --- undo ----------------------------------------------------------------------------------


@transaction.atomic
def irregularity_undo(*, irregularity: Irregularity, actor: Actor, reason: str = ""
                      ) -> Irregularity:
    """Take back the director's decision (the report stands again, as reported): a new
    deal gives the old deal back and the voided results return (while nothing was entered
    on the new deal); a send-back or rectified mark is taken back; a ruling is undone."""
    _require_director(actor)
    event, row = _locked(irregularity)
    if row.status == Status.REPORTED:
        raise ServiceError("nothing has been decided on this report yet", field="irregularity")
    before = _snapshot(row)
    law = LAW[row.stage]
    if row.outcome == "new-deal":
        _undo_new_deal(event, row, actor, reason)
    elif row.outcome in ("average", "fouled", "cancelled"):
        _undo_rulings(event, row, actor, reason)
    row.status = Status.REPORTED
    row.outcome = ""
    row.sent_to_table = row.sent_to_round = None
    row.resolved_at = None
    row.save()
    _audit(event=event, actor=actor, action="irregular board", before=before,
           after=_snapshot(row), reason=_law_reason(law, reason, "decision undone"))
    return row


def _new_deal_decision(row: Irregularity) -> AuditEntry | None:
    """The entry of the new deal being undone: a "new deal" (dealt here or as given), or
    the report's own entry for one re-dealt by hand (irregularity_new_deal)."""
    return (AuditEntry.objects.filter(event_id=row.event_id, after__board=row.board.number)
            .filter(Q(action="new deal")
                    | Q(action="irregular board", after__dealt="by hand"))
            .order_by("-id").first())


def _undo_new_deal(event: Event, row: Irregularity, actor: Actor, reason: str) -> None:
    board = Board.objects.select_for_update().get(pk=row.board_id)
    if Result.objects.filter(board=board, voided=False).exists():
        raise ServiceError(f"board {board.number} has results on its new deal: remove them "
                           "first, or leave the new deal", field="irregularity")
    entry = _new_deal_decision(row)
    if entry is None:
        raise ServiceError("the new deal's record is missing", field="irregularity")
    old = entry.before.get("deal", "")
    new = board.deal
    board.deal = "" if old == NO_RECORD else old
    board.save(update_fields=["deal"])
    if board.deal != new:
        # The deal history stays whole: taking the new deal back is a change of deal too
        # (one re-dealt by hand on a board with no hand record changed no deal).
        _audit(event=event, actor=actor, action="new deal",
               before={"board": board.number, "deal": new},
               after={"board": board.number, "deal": old, "law": LAW[row.stage]},
               reason=_law_reason(LAW[row.stage], reason, "new deal taken back"))
    for result in Result.objects.select_for_update(of=("self",)).filter(
            pk__in=entry.after.get("voided", [])):
        _ensure_free(result)
        before = seam.snapshot(result)
        result.voided = False
        _save_change(result, event=event, actor=actor, action="undo", before=before,
                     reason=_law_reason(LAW[row.stage], reason, "new deal undone"))
    if entry.after.get("leave to play late"):
        # The leave the new deal gave both tables goes with it (their results are back).
        tables = [m.pk for m in board_meetings(event, board.number)]
        for m in Meeting.objects.select_for_update().filter(pk__in=tables):
            if board.number in (m.late_boards or []):
                m.late_boards = [b for b in m.late_boards if b != board.number]
                m.save(update_fields=["late_boards"])


def _undo_rulings(event: Event, row: Irregularity, actor: Actor, reason: str) -> None:
    entries = AuditEntry.objects.filter(event=event, action="rule", undone_by__isnull=True,
                                        result__board=row.board,
                                        reason__startswith=LAW[Stage.OVERPLAY])
    if row.outcome != "cancelled" and row.meeting is not None:
        entries = entries.filter(result__meeting=row.meeting)
    for entry in entries.order_by("-id"):
        _audit_undo(entry=entry, actor=actor,
                    reason=_law_reason(LAW[row.stage], reason, "ruling undone"))


# --- the night file ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IrregularityRow:
    """An irregular board as a night file carries it (checked by tournaments.nightfile)."""

    board: int
    stage: str
    status: str
    outcome: str = ""
    meeting: tuple[str, int, int] | None = None  # (section, round, table)
    short_seat: str = ""
    surplus_seat: str = ""
    misplaced_card: str = ""
    sent_to_table: int | None = None
    sent_to_round: int | None = None
    reported_by: str = "import"
    reported_at: Any = None  # an aware datetime, or None: now
    resolved_at: Any = None
    note: str = ""


@transaction.atomic
def irregularities_import(*, event: Event, rows: list[IrregularityRow], actor: Actor
                          ) -> list[Irregularity]:
    """Store a night file's irregular boards as they were (their steps are in the audit)."""
    if not actor.directs:
        raise Forbidden("only the director imports a night")
    locked = _lock_event(event.pk)
    boards = {b.number: b for b in Board.objects.filter(event=locked)}
    meetings = {(m.section.name, m.round, m.table): m for m in
                Meeting.objects.filter(section__event=locked).select_related("section")}
    stored = []
    for row in rows:
        irr = Irregularity.objects.create(
            event=locked, board=boards[row.board],
            meeting=meetings.get(row.meeting) if row.meeting else None, stage=row.stage,
            status=row.status, outcome=row.outcome, short_seat=row.short_seat,
            surplus_seat=row.surplus_seat, misplaced_card=row.misplaced_card,
            sent_to_table=row.sent_to_table, sent_to_round=row.sent_to_round,
            reported_by=row.reported_by[:80], resolved_at=row.resolved_at, note=row.note)
        if row.reported_at is not None:  # auto_now_add: put back its own time
            Irregularity.objects.filter(pk=irr.pk).update(reported_at=row.reported_at)
        stored.append(irr)
    return stored
