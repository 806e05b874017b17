"""A party night: progressive play for the club's social night (scoring/engine/party.py).

Terms: a *party* is the night; its *players* are members of the club or visitors by
name; each *table* has a phone whose link holds the table's code; a *round* is the deals
each table plays before the progression moves the players; a table's round is *over*
when all its deals are in (a fixed number of deals) or the table says time is up (a time
per round). The director starts the night, then calls each next round when every table's
round is over; the progression (``scoring.engine.party.progression``) seats it.

Only what was entered is stored: each deal as the engine's input (as the score pad stores
its deals) and who sat where in each round. Every score, tally and place comes from the
engine over the stored deals, so there is one truth.

Writers to one party serialise on its row (``_lock``: one UPDATE that bumps ``seq`` and
takes the row lock), taken first, then its tables' rows. The director's corrections are
audited (AuditEntry with the party); a table's own entries are its players' record, as on
the score pad.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scoring.engine import RUBBER_RULE_SETS, rank
from scoring.engine import party as engine
from scoring.engine.model import ResultError

from .. import presenters
from ..models import (
    AuditEntry,
    Party,
    PartyDeal,
    PartyPlayer,
    PartySeat,
    PartyTable,
    PartyTableRound,
    Player,
)
from .base import Actor, Forbidden, ServiceError
from .rubbers import deal_input, deal_line

NAME_MAX = 80
MAX_TABLES = 40


def seats_of(game: str) -> tuple[str, ...]:
    return engine.seats_of(game)


def table_size(game: str) -> int:
    return len(engine.seats_of(game))


# --- setting up ---------------------------------------------------------------------------


def _players(players: object) -> list[tuple[str, Player | None]]:
    """The listed players as (name, member): an entry is a member's id (``{"member":
    id}``) or a visitor's name (``"Ann Lee"`` or ``{"name": "Ann Lee"}``)."""
    if not isinstance(players, (list, tuple)):
        raise ServiceError("list the players: members of the club or visitors by name",
                           field="players")
    out: list[tuple[str, Player | None]] = []
    seen: set[str] = set()
    for i, entry in enumerate(players, start=1):
        member = None
        if isinstance(entry, Mapping) and entry.get("member") not in (None, ""):
            try:
                pk = int(entry["member"])
            except (TypeError, ValueError):
                pk = 0
            # Out of the id column's range is no member (and no database error).
            member = Player.objects.filter(pk=pk).first() if 1 <= pk < 2**63 else None
            if member is None:
                raise ServiceError(f"player {i}: there is no such member on the club's list",
                                   field="players")
            name = member.name
        else:
            name = entry.get("name") if isinstance(entry, Mapping) else entry
            name = " ".join(str(name or "").split())
        if not name:
            raise ServiceError(f"player {i} has no name", field="players")
        if len(name) > NAME_MAX:
            raise ServiceError(f"the name of player {i} is too long: at most {NAME_MAX} "
                               "letters", field="players")
        if name.casefold() in seen:
            raise ServiceError(f"{name} is listed twice: a second player of that name needs "
                               "an initial to tell them apart", field="players")
        seen.add(name.casefold())
        out.append((name, member))
    return out


def _check_shape(*, game: str, rules: str, deals_per_round: int | None,
                 minutes_per_round: int | None, rounds: int) -> str:
    if game not in engine.PARTY_GAMES:
        raise ServiceError("choose the game: Auction Bridge, Three-Hand Auction or Whist",
                           field="game")
    if game == "whist":
        rules = ""
    elif rules not in RUBBER_RULE_SETS:
        raise ServiceError("choose the American rule (1913) or the English rule", field="rules")
    if (deals_per_round is None) == (minutes_per_round is None):
        raise ServiceError("a round is either a number of deals or a number of minutes: "
                           "give one of them", field="deals_per_round")
    if deals_per_round is not None and not 1 <= deals_per_round <= 52:
        raise ServiceError("deals per round: between 1 and 52", field="deals_per_round")
    if minutes_per_round is not None and not 1 <= minutes_per_round <= 240:
        raise ServiceError("minutes per round: between 1 and 240", field="minutes_per_round")
    if not isinstance(rounds, int) or not 1 <= rounds <= 30:
        raise ServiceError("the number of rounds: between 1 and 30", field="rounds")
    return rules


@transaction.atomic
def party_create(*, name: str, date: datetime.date, game: str, rounds: int,
                 players: Sequence[Any], rules: str = "american-1913",
                 deals_per_round: int | None = None, minutes_per_round: int | None = None,
                 actor: Actor) -> Party:
    """Set up a party night: its game, its rounds (a number of deals or of minutes each)
    and its players in the order the director lists them (the first seating)."""
    if not actor.directs:
        raise Forbidden("only the director sets up a party night")
    name = " ".join(str(name or "").split())
    if not name:
        raise ServiceError("give the night a name", field="name")
    if len(name) > 120:
        raise ServiceError("the name is too long: at most 120 letters", field="name")
    rules = _check_shape(game=game, rules=rules, deals_per_round=deals_per_round,
                         minutes_per_round=minutes_per_round, rounds=rounds)
    listed = _players(players)
    party = Party.objects.create(name=name, date=date, game=game, rules=rules,
                                 deals_per_round=deals_per_round,
                                 minutes_per_round=minutes_per_round, rounds=rounds)
    PartyPlayer.objects.bulk_create(
        PartyPlayer(party=party, number=i, name=n, member=m)
        for i, (n, m) in enumerate(listed, start=1))
    _audit(party, actor, "party-create", after={"name": name, "players": len(listed)})
    return party


def _lock(party: Party) -> Party:
    """Take the party's row lock and its next change number (``seq``) in one UPDATE."""
    if not Party.objects.filter(pk=party.pk).update(seq=F("seq") + 1):
        raise ServiceError("there is no such party night")
    return Party.objects.select_for_update().get(pk=party.pk)


def _audit(party: Party, actor: Actor, action: str, *, before: dict | None = None,
           after: dict | None = None, reason: str = "") -> AuditEntry:
    return AuditEntry.objects.create(
        party=party, action=action[:24], reason=reason, before=before, after=after,
        actor=actor.user if actor.user is not None and actor.user.pk else None,
        actor_label=actor.label[:80])


@transaction.atomic
def party_players_set(*, party: Party, players: Sequence[Any], actor: Actor) -> Party:
    """Put a new list of players in place of the old one, before the night starts."""
    if not actor.directs:
        raise Forbidden("only the director changes the players")
    party = _lock(party)
    if party.status != Party.Status.SETTING_UP:
        raise ServiceError("the night has started: the players are seated")
    listed = _players(players)
    party.players.all().delete()
    PartyPlayer.objects.bulk_create(
        PartyPlayer(party=party, number=i, name=n, member=m)
        for i, (n, m) in enumerate(listed, start=1))
    _audit(party, actor, "party-players", after={"players": [n for n, _m in listed]})
    return party


@transaction.atomic
def party_start(*, party: Party, actor: Actor, draw: bool = False) -> Party:
    """Seat round 1 and give each table its phone's code. The players sit in the order
    listed, table by table: at four hands the first two N and S, the next two E and W
    (at Three-Hand A, B, C); with ``draw`` the order is drawn at random first."""
    if not actor.directs:
        raise Forbidden("only the director starts the night")
    party = _lock(party)
    if party.status != Party.Status.SETTING_UP:
        raise ServiceError("the night has started already")
    players = list(party.players.order_by("number"))
    size = table_size(party.game)
    if not players or len(players) % size:
        short = size - len(players) % size if players else size
        raise ServiceError(
            f"{party.get_game_display()} is played {size} at a table: {len(players)} "
            f"player{'s' if len(players) != 1 else ''} listed; add {short} more (a visitor "
            "may fill a table) or take some off", field="players")
    if len(players) // size > MAX_TABLES:
        raise ServiceError(f"at most {MAX_TABLES} tables", field="players")
    if draw:
        secrets.SystemRandom().shuffle(players)
    order = ("N", "S", "E", "W") if size == 4 else seats_of(party.game)
    tables = PartyTable.objects.bulk_create(
        PartyTable(party=party, number=t + 1, code=secrets.token_urlsafe(9))
        for t in range(len(players) // size))
    seating = [{seat: players[t * size + i] for i, seat in enumerate(order)}
               for t in range(len(tables))]
    _seat(party, 1, tables, seating)
    party.status = Party.Status.PLAYING
    party.current_round = 1
    party.round_started_at = timezone.now()
    party.save(update_fields=["status", "current_round", "round_started_at"])
    _audit(party, actor, "party-start", after={"tables": len(tables), "draw": draw})
    return party


def _seat(party: Party, round_number: int, tables: Sequence[PartyTable],
          seating: Sequence[Mapping[str, Any]]) -> None:
    PartySeat.objects.bulk_create(
        PartySeat(party=party, round=round_number, table=table, seat=seat, player=player)
        for table, seats in zip(tables, seating, strict=True) for seat, player in seats.items())
    PartyTableRound.objects.bulk_create(
        PartyTableRound(table=table, round=round_number) for table in tables)


# --- the tables' deals -----------------------------------------------------------------------


def _table_round(table: PartyTable, round_number: int) -> PartyTableRound:
    return PartyTableRound.objects.select_for_update().get(table=table, round=round_number)


def _checked(party: Party, deal: object, dealer: str,
             revokes_by: Mapping[str, Any] | None) -> dict:
    """The deal as the engine's input, scored once to check it (its first fault as a
    ServiceError, in the engine's words)."""
    data = deal_input(game=party.game, deal=deal, dealer=dealer, revokes_by=revokes_by)
    try:
        engine.score_party_deal(party.game, data, party.rules or "american-1913")
    except ResultError as exc:
        raise ServiceError(exc.message, field=exc.field or "deal") from None
    return data


def _playing(party: Party) -> None:
    if party.status == Party.Status.SETTING_UP:
        raise ServiceError("the night has not started yet: the director starts it")
    if party.status == Party.Status.FINISHED:
        raise ServiceError("the night is over: ask the director for a correction")


def _check_table(actor: Actor, table: PartyTable) -> None:
    if not (actor.directs or actor.table == table.pk):
        raise Forbidden("a table enters only its own deals")


@transaction.atomic
def party_deal_add(*, table: PartyTable, deal: Mapping[str, Any], actor: Actor,
                   revokes_by: Mapping[str, Any] | None = None) -> PartyDeal:
    """Add the table's next deal of the current round (the dealer goes round the table)."""
    _check_table(actor, table)
    party = _lock(table.party)
    _playing(party)
    state = _table_round(table, party.current_round)
    stored = PartyDeal.objects.filter(table=table, round=party.current_round).count()
    if state.done:
        raise ServiceError(
            f"round {party.current_round} is over at this table"
            + (f": its {party.deals_per_round} deals are in" if party.deals_per_round else "")
            + ". Correct a deal if one is wrong, or wait for the next round")
    number = stored + 1
    dealer = engine.dealer_of(party.game, number)
    data = _checked(party, deal, dealer, revokes_by)
    row = PartyDeal.objects.create(table=table, round=party.current_round, number=number,
                                   dealer=dealer, data=data)
    if party.deals_per_round and number >= party.deals_per_round:
        state.done = True
        state.save(update_fields=["done"])
    return row


@transaction.atomic
def party_deal_correct(*, table: PartyTable, number: int, deal: Mapping[str, Any],
                       actor: Actor, round_number: int | None = None,
                       revokes_by: Mapping[str, Any] | None = None,
                       reason: str = "") -> PartyDeal:
    """Put a deal right. A table corrects any deal of the round in play; the director
    any deal of any round, giving the reason (audited). A round already moved on keeps
    its progression: the correction changes the tallies, not who sat where."""
    _check_table(actor, table)
    party = _lock(table.party)
    if party.status == Party.Status.SETTING_UP:
        raise ServiceError("the night has not started yet")
    round_number = round_number or party.current_round
    if not actor.directs:
        if party.status == Party.Status.FINISHED or round_number != party.current_round:
            raise Forbidden(f"round {round_number} is over: ask the director to correct it")
    elif not (reason or "").strip():
        raise ServiceError("say why the deal is corrected", field="reason")
    if not 1 <= round_number <= party.current_round:
        raise ServiceError(f"there is no round {round_number} yet", field="round")
    row = PartyDeal.objects.select_for_update().filter(
        table=table, round=round_number, number=number).first()
    if row is None:
        raise ServiceError(f"there is no deal {number} in round {round_number} at table "
                           f"{table.number}", field="number")
    data = _checked(party, deal, row.dealer, revokes_by)
    before = row.data
    row.data = data
    row.save(update_fields=["data", "changed_at"])
    if actor.directs:
        _audit(party, actor, "party-correct", before={
            "table": table.number, "round": round_number, "deal": number, "data": before},
            after={"table": table.number, "round": round_number, "deal": number,
                   "data": data}, reason=reason.strip())
    return row


@transaction.atomic
def party_round_over(*, table: PartyTable, actor: Actor) -> PartyTableRound:
    """The table says its time is up (a round of a fixed time): its deals are in."""
    _check_table(actor, table)
    party = _lock(table.party)
    _playing(party)
    if party.deals_per_round:
        raise ServiceError(f"a round is {party.deals_per_round} deals: the round is over when "
                           "they are all entered")
    state = _table_round(table, party.current_round)
    if not PartyDeal.objects.filter(table=table, round=party.current_round).exists():
        raise ServiceError("enter the deals you played first")
    state.done = True
    state.save(update_fields=["done"])
    return state


def _chosen(party: Party, current: Sequence[Mapping[str, Any]],
            level: Mapping[Any, Any] | None) -> list[str | None]:
    """The director's choice of who moves up at each level table (table number → side
    "NS"/"EW", or the top player's seat at Three-Hand), checked."""
    chosen: list[str | None] = [None] * len(current)
    by_number = {t["table"]: i for i, t in enumerate(current)}
    for key, value in (level or {}).items():
        try:
            number = int(key)
        except (TypeError, ValueError):
            raise ServiceError("name a level table by its number", field="level") from None
        if number not in by_number:
            raise ServiceError(f"there is no table {number}", field="level")
        entry = current[by_number[number]]
        tied = engine.level(party.game, entry["points"])
        if not tied:
            raise ServiceError(f"table {number} is not level: its winners move up",
                               field="level")
        if value not in tied:
            names = " or ".join(entry["labels"].get(k, k) for k in tied)
            raise ServiceError(f"at table {number} choose {names}", field="level")
        chosen[by_number[number]] = str(value)
    return chosen


@transaction.atomic
def party_round_advance(*, party: Party, actor: Actor, force: bool = False,
                        level: Mapping[Any, Any] | None = None) -> Party:
    """Call the next round: seat it by the progression from this round's results (or
    end the night after the last round). Every table's round must be over, unless the
    director ends it now (``force``): the deals already entered count. ``level``: who
    moves up at a level table (the director's cut of the cards; else the pinned rule)."""
    if not actor.directs:
        raise Forbidden("only the director calls the next round")
    party = _lock(party)
    _playing(party)
    night = _night(party)
    current = night["rounds"][party.current_round]
    waiting = [t["table"] for t in current if not t["done"]]
    if waiting and not force:
        raise ServiceError(
            f"round {party.current_round} is not over at table"
            f"{'s' if len(waiting) > 1 else ''} {presenters.listed(waiting)}: wait for "
            f"{'them' if len(waiting) > 1 else 'it'}, or end the round now")
    chosen = _chosen(party, current, level)
    PartyTableRound.objects.filter(table__party=party, round=party.current_round).update(
        done=True)
    before = party.current_round
    if party.current_round >= party.rounds:
        party.status = Party.Status.FINISHED
        party.save(update_fields=["status"])
    else:
        seating = engine.progression(party.game, [t["seated"] for t in current],
                                     [t["points"] for t in current], chosen)
        tables = list(party.tables.order_by("number"))
        party.current_round += 1
        party.round_started_at = timezone.now()
        party.save(update_fields=["current_round", "round_started_at"])
        _seat(party, party.current_round, tables, seating)
    _audit(party, actor, "party-advance", before={"round": before},
           after={"round": party.current_round, "status": party.status,
                  "ended_early": waiting,
                  "level_chosen": {t["table"]: c for t, c in zip(current, chosen, strict=True)
                                   if c is not None}})
    return party


# --- reading: the night as plain data ----------------------------------------------------


def _labels(game: str, seated: Mapping[str, PartyPlayer]) -> dict[str, str]:
    if game == "three-hand":
        return {s: seated[s].name for s in engine.PLAYERS if s in seated}
    return {"NS": f"{seated['N'].name} & {seated['S'].name}",
            "EW": f"{seated['E'].name} & {seated['W'].name}"} if len(seated) == 4 else {}


def _deal_row(party: Party, number: int, dealer: str, data: dict,
              seated: Mapping[str, PartyPlayer]) -> dict[str, Any]:
    """A deal as the pages, the API and the printed sheet show it: its line in the score
    pad's words (``what``: contract and tricks, then its ``notes``: honours, revokes and
    their penalty, penalties), the engine's score of it by column (trick score, honour
    score, total) and its items with their laws."""
    names = {s: p.name for s, p in seated.items()}
    labels = _labels(party.game, seated)
    score = engine.score_party_deal(party.game, data, party.rules or "american-1913")
    out = score.to_dict()
    if party.game == "auction":
        above = {"NS": out["ns"]["trick_score"], "EW": out["ew"]["trick_score"]}
        below = {"NS": out["ns"]["honour_score"], "EW": out["ew"]["honour_score"]}
        items = [{"to": labels.get(i["side"].upper(), i["side"].upper()), "points": i["points"],
                  "what": presenters.dashed_sides(i["what"]),
                  "law": presenters.law_text(i["law"])}
                 for i in out["items"]]
    elif party.game == "three-hand":
        above = {p: out["players"][p]["trick_score"] for p in engine.PLAYERS}
        below = {p: out["players"][p]["honour_score"] for p in engine.PLAYERS}
        items = [{"to": labels.get(i["player"], i["player"]), "points": i["points"],
                  "what": presenters.dashed_sides(i["what"]),
                  "law": presenters.law_text(i["law"])}
                 for i in out["items"]]
    else:
        above = dict(out["points"])
        below = {"NS": 0, "EW": 0}
        items = [{"to": labels.get(i["side"], i["side"]), "points": i["points"],
                  "what": presenters.dashed_sides(i["what"]),
                  "law": presenters.law_text(i["law"])}
                 for i in out["items"]]
    keys = engine.columns_of(party.game)
    points = engine.deal_points(party.game, score)
    what, notes = deal_line(game=party.game, data=data, names=names, score=out)
    return {"number": number, "dealer": dealer, "dealer_name": names.get(dealer, dealer),
            "what": what, "notes": notes, "data": data,
            "above": above, "below": below, "points": points, "items": items,
            "above_list": [above[k] for k in keys], "below_list": [below[k] for k in keys],
            "points_list": [points[k] for k in keys]}


def _night(party: Party) -> dict[str, Any]:
    """Every round's tables as plain data, from four queries: who sat where, the deals,
    which tables' rounds are over. Each table: ``seated`` (seat → PartyPlayer), its
    ``deals`` (rows, see ``_deal_row``), ``points`` and ``tally`` by column, ``winner``."""
    tables = {t.pk: t for t in party.tables.all()}
    seats = PartySeat.objects.filter(party=party).select_related("player")
    deals = PartyDeal.objects.filter(table__party=party).order_by("round", "number")
    done = {(s.table_id, s.round): s.done
            for s in PartyTableRound.objects.filter(table__party=party)}
    by: dict[tuple[int, int], dict[str, Any]] = {}
    for s in seats:
        t = tables[s.table_id]
        entry = by.setdefault((s.round, t.number), {
            "table": t.number, "code": t.code, "round": s.round, "seated": {}, "deals": [],
            "done": done.get((t.pk, s.round), False)})
        entry["seated"][s.seat] = s.player
    for d in deals:
        entry = by.get((d.round, tables[d.table_id].number))
        if entry is not None:
            entry["deals"].append(d)
    rounds: dict[int, list[dict[str, Any]]] = {}
    for (r, _n), entry in sorted(by.items()):
        seated = entry["seated"]
        entry["seated"] = {s: seated[s] for s in seats_of(party.game) if s in seated}
        rows = [_deal_row(party, d.number, d.dealer, d.data, entry["seated"])
                for d in entry["deals"]]
        keys = engine.columns_of(party.game)
        points = {k: sum(row["points"][k] for row in rows) for k in keys}
        entry["deals"] = rows
        entry["points"] = points
        entry["tally"] = engine.tally(party.game, points)
        entry["winner"] = engine.winner(party.game, points)
        entry["labels"] = _labels(party.game, entry["seated"])
        rounds.setdefault(r, []).append(entry)
    return {"party": party, "rounds": rounds}


def _seat_rows(party: Party, entry: Mapping[str, Any]) -> list[dict[str, Any]]:
    four = party.game != "three-hand"
    return [{"seat": s, "seat_name": presenters.seat(s) if four else s,
             "player": p.number, "name": p.name}
            for s, p in entry["seated"].items()]


def _table_out(party: Party, entry: Mapping[str, Any]) -> dict[str, Any]:
    keys = engine.columns_of(party.game)
    labels = entry["labels"]
    tally = entry["tally"]
    expected = party.deals_per_round
    return {
        "table": entry["table"], "round": entry["round"], "done": entry["done"],
        "seats": _seat_rows(party, entry),
        "partners": _partners(party.game, entry["seated"]) if entry["seated"] else "",
        "columns": [{"key": k, "label": labels.get(k, k)} for k in keys],
        "deals": entry["deals"], "deals_entered": len(entry["deals"]),
        "deals_expected": expected,
        "points": entry["points"], "points_list": [entry["points"][k] for k in keys],
        "tally": tally, "tally_list": [presenters.signed(tally[k]) for k in keys],
        "level": [{"key": k, "label": labels.get(k, k)}
                  for k in engine.level(party.game, entry["points"])],
        "score_rows": [{"label": labels.get(k, k), "points": entry["points"][k],
                        "tally": presenters.signed(tally[k]) or "0"} for k in keys],
        "winner": entry["winner"] if entry["deals"] or entry["done"] else None,
        "winner_label": labels.get(entry["winner"], "") if entry["deals"] or entry["done"]
        else "",
    }


def _tallies(party: Party, night: Mapping[str, Any]) -> dict[int, dict[int, int]]:
    """player number → round → tally; a round with no deal entered at the player's table
    yet (the round just begun) has none."""
    out: dict[int, dict[int, int]] = {}
    for r, entries in night["rounds"].items():
        for entry in entries:
            if not entry["deals"] and not entry["done"]:
                continue
            for seat, player in entry["seated"].items():
                col = engine.column_of(party.game, seat)
                out.setdefault(player.number, {})[r] = entry["tally"][col]
    return out


def party_standings(*, party: Party) -> dict[str, Any]:
    """The ranking of individuals: each player's tally round by round and in all, best
    first, equal totals sharing a place ("2="). The round in play counts as entered."""
    night = _night(party)
    tallies = _tallies(party, night)
    players = list(party.players.order_by("number"))
    totals = {p.number: sum(tallies.get(p.number, {}).values()) for p in players}
    by_number = {p.number: p for p in players}
    rows = []
    round_numbers = list(range(1, party.current_round + 1))
    for number, place in rank(totals):
        p = by_number[number]  # type: ignore[index]
        per = tallies.get(p.number, {})
        rows.append({
            "place": place, "player": p.number, "name": p.name,
            "member": p.member.number if p.member_id and p.member else None,
            "rounds": [per.get(r) for r in round_numbers],
            "rounds_text": [presenters.signed(per[r]) if r in per else "—" for r in
                            round_numbers],
            "total": totals[p.number], "total_text": presenters.signed(totals[p.number])
            or "0"})
    return {
        "party": party.pk, "name": party.name, "date": party.date.isoformat(),
        "game": party.game, "game_name": party.get_game_display(),
        "rules_name": party.get_rules_display() if party.rules else "",
        "status": party.status, "status_name": party.get_status_display(),
        "round": party.current_round, "rounds": party.rounds, "round_numbers": round_numbers,
        "in_play": party.status == Party.Status.PLAYING, "seq": party.seq, "rows": rows,
    }


def party_round(*, party: Party, round_number: int | None = None) -> dict[str, Any]:
    """One round's tables (the current one by default): who sits where, the deals
    entered and scored, each table's round score, tallies and whether it is over."""
    night = _night(party)
    r = round_number or party.current_round
    entries = night["rounds"].get(r, [])
    return {"round": r, "tables": [_table_out(party, e) for e in entries],
            "over": bool(entries) and all(e["done"] for e in entries)}


def party_progression(*, party: Party, round_number: int) -> dict[str, Any] | None:
    """Who goes where after ``round_number``: the next round's seating as it was made, or
    (the round in play, once every table's round is over) as it will be made. None while
    some table still plays, or after the last round. Each table's seats and, player by
    player in name order, where each goes (the progression card)."""
    if round_number >= party.rounds:
        return None
    night = _night(party)
    entries = night["rounds"].get(round_number, [])
    nxt = night["rounds"].get(round_number + 1)
    if nxt is not None:
        seating = [e["seated"] for e in nxt]
        final = True
    elif entries and all(e["done"] for e in entries):
        seating = engine.progression(party.game, [e["seated"] for e in entries],
                                     [e["points"] for e in entries])
        final = False
    else:
        return None
    was = {p.number: e["table"] for e in entries for p in e["seated"].values()}
    four = party.game != "three-hand"
    tables, cards = [], []
    for t, seats in enumerate(seating, start=1):
        rows = [{"seat": s, "seat_name": presenters.seat(s) if four else s,
                 "player": p.number, "name": p.name} for s, p in
                sorted(seats.items(), key=lambda sp: seats_of(party.game).index(sp[0]))]
        tables.append({"table": t, "seats": rows,
                       "partners": _partners(party.game, seats)})
        for row in rows:
            frm = was.get(row["player"])
            move = ("stays" if frm == t else "moves up" if frm and frm > t else "moves down")
            cards.append({**row, "table": t, "from_table": frm, "move": move})
    cards.sort(key=lambda c: c["name"].casefold())
    level = [] if final else [e["table"] for e in entries
                              if engine.level(party.game, e["points"])]
    return {"after_round": round_number, "round": round_number + 1, "final": final,
            "tables": tables, "players": cards, "level": level}


def _partners(game: str, seats: Mapping[str, Any]) -> str:
    """Who plays with whom: "Ann & Bob (N–S) against Cy & Di (E–W)"; Three-Hand, the three."""
    if game == "three-hand":
        return ", ".join(f"{p.name} ({s})" for s, p in seats.items())
    return (f"{seats['N'].name} & {seats['S'].name} (N–S) against "
            f"{seats['E'].name} & {seats['W'].name} (E–W)")


def party_table_view(*, table: PartyTable) -> dict[str, Any]:
    """What a table's phone shows: the round in play here, its deals, what comes next,
    and (after a progression) where the last round's players went."""
    party = table.party
    view: dict[str, Any] = {"party": party, "table": table.number, "tables": 0,
                            "round": party.current_round, "here": None, "moved": None,
                            "next_deal": None, "ends_at": round_ends_at(party)}
    if party.status == Party.Status.SETTING_UP:
        return view
    rnd = party_round(party=party)
    view["tables"] = len(rnd["tables"])
    here = next((t for t in rnd["tables"] if t["table"] == table.number), None)
    view["here"] = here
    if here and not here["done"] and party.status == Party.Status.PLAYING:
        n = here["deals_entered"] + 1
        dealer = engine.dealer_of(party.game, n)
        names = {s["seat"]: s["name"] for s in here["seats"]}
        view["next_deal"] = {"number": n, "dealer": dealer,
                             "dealer_name": names.get(dealer, dealer)}
    if party.current_round > 1:
        prog = party_progression(party=party, round_number=party.current_round - 1)
        if prog:
            view["moved"] = [c for c in prog["players"] if c["from_table"] == table.number]
    if here and here["done"] and party.status == Party.Status.PLAYING:
        prog = party_progression(party=party, round_number=party.current_round)
        if prog:
            view["next"] = [c for c in prog["players"] if c["from_table"] == table.number]
    return view


def round_ends_at(party: Party) -> str | None:
    """When a round of a time is up, on the club's clock ("21:05"); None otherwise."""
    if (party.minutes_per_round is None or party.round_started_at is None
            or party.status != Party.Status.PLAYING):
        return None
    return presenters.clock(party.round_started_at
                            + datetime.timedelta(minutes=party.minutes_per_round))


def party_preview(*, table: PartyTable, deal: Mapping[str, Any],
                  revokes_by: Mapping[str, Any] | None = None,
                  number: int | None = None) -> dict[str, Any]:
    """The live score of a deal being entered at a table (stores nothing): ``{"ok":
    True, "deal": its row}`` or ``{"ok": False, "message", "field"}``."""
    party = table.party
    seated = {s.seat: s.player for s in PartySeat.objects.filter(
        table=table, round=party.current_round).select_related("player")}
    if number is None:
        number = PartyDeal.objects.filter(table=table, round=party.current_round).count() + 1
    dealer = engine.dealer_of(party.game, number)
    try:
        data = _checked(party, deal, dealer, revokes_by)
    except ServiceError as exc:
        return {"ok": False, "message": exc.message, "field": exc.field}
    return {"ok": True, "deal": _deal_row(party, number, dealer, data, seated)}


def table_actor(table: PartyTable) -> Actor:
    """A party table acting from its phone (its code is its secret): ``table`` holds
    the table's row id, so a table's actor fits no other table of any night."""
    return Actor(label=f"party table {table.number}", table=table.pk)
