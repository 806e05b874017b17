"""The club's member list: import and export as CSV, one member's details, merging two
records of one person, and reading a pair's players as members or visitors.

A member has the club's own number (unique); a visitor has none. A player written in a
pair's line is one of:

- ``1234``: the member numbered 1234 (there must be one);
- ``Ann Lee #1234``: the member numbered 1234, or a new member with that number and name;
- ``Ann Lee``: a visitor (no number), as every name was before the member list.

Member-list changes are not one event's: the CSV import and a member's edit lock no
event. Merging two records touches every event either played in: those events are locked
in id order (the lock order's "event first"), and each gets an audit entry (decisions.md).
Everything that hangs off the record dropped moves to the one kept (``members_merge``):
its seats in pairs, its substitutions, its score cards' mail and its places at party
nights, so that nothing owed to the person is lost with the record.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max, Q
from django.db.models.functions import Lower, Trim
from django.utils import timezone

from ..models import Event, Pair, Party, PartyPlayer, Player, ScoreCardMail, Substitute
from .base import Actor, Forbidden, ServiceError, _audit, _lock_event
from .party import _audit as _party_audit
from .party import _lock as _lock_party

CSV_COLUMNS = ["number", "first_name", "last_name", "email"]
NUMBER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,19}$")
# "Ann Lee #1234": a name, then the member number after "#".
NAMED_NUMBER = re.compile(r"^(?P<name>.*?)\s*#\s*(?P<number>[A-Za-z0-9-]+)$")
MAX_IMPORT_ROWS = 5000


@dataclass(frozen=True)
class MemberRow:
    """One checked line of a member CSV file."""

    line: int
    number: str
    first_name: str
    last_name: str
    email: str
    active: bool = True


@dataclass(frozen=True)
class ImportReport:
    created: int
    updated: int

    @property
    def words(self) -> str:
        return (f"{self.created} member{'s' if self.created != 1 else ''} added, "
                f"{self.updated} updated")


def full_name(first_name: str, last_name: str) -> str:
    return " ".join(p for p in (first_name.strip(), last_name.strip()) if p)


def _check_number(number: str, where: str) -> str:
    number = number.strip()
    if not NUMBER.match(number):
        raise ServiceError(f"{where}: a member number is letters and digits, at most 20 "
                           f"(not {number!r})", field="number")
    return number


def members_parse_csv(text: str) -> list[MemberRow]:
    """Check every row of a member file; the first bad row is named by its line number
    (the header is line 1). Nothing is stored here."""
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise ServiceError("the file is empty: its first line is the header "
                           "number,first_name,last_name,email", field="file") from None
    except csv.Error as exc:
        raise ServiceError(f"line 1: {exc}", field="file") from None
    columns = [h.strip().lower() for h in header]
    if columns not in (CSV_COLUMNS, [*CSV_COLUMNS, "active"]):
        raise ServiceError("line 1: the header must be number,first_name,last_name,email "
                           "(and, as the list downloaded has it, active)", field="file")
    width = len(columns)
    rows: list[MemberRow] = []
    seen: dict[str, int] = {}
    try:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != width:
                raise ServiceError(f"line {line}: a row has {width} columns "
                                   f"({','.join(columns)}), this one has "
                                   f"{len(cells)}", field="file")
            number, first, last, email, *rest = (c.strip() for c in cells)
            active = _active_cell(rest[0] if rest else "", line)
            number = _check_number(number, f"line {line}")
            if not first and not last:
                raise ServiceError(f"line {line}: member {number} needs a name",
                                   field="file")
            if len(first) > 40 or len(last) > 40:
                raise ServiceError(f"line {line}: a first or last name is at most 40 "
                                   "letters", field="file")
            if email:
                try:
                    validate_email(email)
                except ValidationError:
                    raise ServiceError(f"line {line}: “{email}” is not an e-mail address",
                                       field="file") from None
            if number in seen:
                raise ServiceError(f"line {line}: member number {number} is on line "
                                   f"{seen[number]} already", field="file")
            seen[number] = line
            rows.append(MemberRow(line, number, first, last, email, active))
            if len(rows) > MAX_IMPORT_ROWS:
                raise ServiceError(f"at most {MAX_IMPORT_ROWS} members in one file",
                                   field="file")
    except csv.Error as exc:
        raise ServiceError(f"line {reader.line_num}: {exc}", field="file") from None
    return rows


def _active_cell(cell: str, line: int) -> bool:
    """The ``active`` column as the downloaded list writes it: yes or no (blank: yes)."""
    answer = {"": True, "yes": True, "y": True, "no": False, "n": False}.get(cell.lower())
    if answer is None:
        raise ServiceError(f"line {line}: active is yes or no, not “{cell[:20]}”",
                           field="file")
    return answer


def _require_director(actor: Actor) -> None:
    if not actor.directs:
        raise Forbidden("only the director changes the member list")


@transaction.atomic
def members_import(*, text: str, actor: Actor) -> ImportReport:
    """Import a member CSV: every row is checked first, then all are stored in one
    transaction. A number already known updates that member (names, e-mail) and marks
    them active (or, with an ``active`` column, as it says); a new number adds a member.
    An empty e-mail cell keeps the address on file: a list without addresses does not
    wipe them (an address is removed on the member's own page)."""
    _require_director(actor)
    rows = members_parse_csv(text)
    # The nights of a member renamed show the new name: their events first (in id order,
    # as members_merge locks them), then the members' rows.
    before = dict(Player.objects.filter(number__in=[r.number for r in rows])
                  .values_list("number", "name"))
    renamed = [row.number for row in rows if row.number in before
               and before[row.number] != full_name(row.first_name, row.last_name)[:80]]
    _roster_changed(Player.objects.filter(number__in=renamed).values_list("pk", flat=True))
    known = {p.number: p for p in Player.objects.select_for_update().filter(
        number__in=[r.number for r in rows])}
    created = updated = 0
    for row in rows:
        name = full_name(row.first_name, row.last_name)[:80]
        player = known.get(row.number)
        if player is None:
            Player.objects.create(number=row.number, name=name, first_name=row.first_name,
                                  last_name=row.last_name, email=row.email,
                                  active=row.active)
            created += 1
            continue
        new = {"name": name, "first_name": row.first_name, "last_name": row.last_name,
               "email": row.email or player.email, "active": row.active}
        if any(getattr(player, k) != v for k, v in new.items()):
            for key, value in new.items():
                setattr(player, key, value)
            player.save(update_fields=list(new))
            updated += 1
    return ImportReport(created=created, updated=updated)


@transaction.atomic
def member_save(*, player: Player | None = None, number: str | None, first_name: str,
                last_name: str, email: str = "", active: bool = True,
                actor: Actor) -> Player:
    """Create a member (player=None) or change one: number, names, e-mail, active.
    A visitor given a number becomes a member."""
    _require_director(actor)
    first_name, last_name, email = first_name.strip(), last_name.strip(), email.strip()
    if not first_name and not last_name:
        raise ServiceError("a member needs a name", field="last_name")
    if number is not None and number.strip() == "":
        number = None
    if number is not None:
        number = _check_number(number, "number")
    if email:
        try:
            validate_email(email)
        except ValidationError:
            # Not f"{email!r} is …": the message would open with what was typed, and a
            # message's first letter is made a capital (ServiceError): "'Not-an-email'".
            raise ServiceError(f"that is not an e-mail address: “{email}”",
                               field="email") from None
    if player is not None:
        was = Player.objects.filter(pk=player.pk).values_list("name", "number").get()
        if was != (full_name(first_name, last_name)[:80], number):
            _roster_changed([player.pk])  # its nights' standings show the new name
        player = Player.objects.select_for_update().get(pk=player.pk)
    clash = Player.objects.filter(number=number).exclude(
        pk=player.pk if player else None).first() if number else None
    if clash is not None:
        raise ServiceError(f"member number {number} is {clash.name}'s already: "
                           "merge the two records if they are one person", field="number")
    fields = {"number": number, "first_name": first_name, "last_name": last_name,
              "name": full_name(first_name, last_name)[:80], "email": email,
              "active": bool(active)}
    if player is None:
        return Player.objects.create(**fields)
    for key, value in fields.items():
        setattr(player, key, value)
    player.save(update_fields=list(fields))
    return player


@transaction.atomic
def player_email_opt_out(*, player: Player, opted_out: bool = True) -> Player:
    """The player's own choice, from the link in a score card's mail: no more score
    cards by e-mail (or, ``opted_out=False``, send them again). No actor: the signed
    link is the player's word. Asking twice changes nothing (the first time is kept)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.email_opt_out == opted_out:
        return player
    player.email_opt_out = opted_out
    player.email_opt_out_at = timezone.now() if opted_out else None
    player.save(update_fields=["email_opt_out", "email_opt_out_at"])
    return player


def _events_of(player_ids: Sequence[int]) -> list[int]:
    pairs = Pair.objects.filter(Q(player_1_id__in=player_ids) | Q(player_2_id__in=player_ids))
    subs = Substitute.objects.filter(player_id__in=player_ids)
    ids = set(pairs.values_list("event_id", flat=True))
    ids |= set(subs.values_list("pair__event_id", flat=True))
    return sorted(ids)


def _roster_changed(player_ids: Iterable[int]) -> None:
    """The players' names or numbers change: each event they played in is locked (in id
    order) and its roster_seq moved, so every process's standings read the pairs' names
    again (standings.PairState.names_for) and the live pages hear of it."""
    for event_id in _events_of(list(player_ids)):
        locked = _lock_event(event_id)
        Event.objects.filter(pk=event_id).update(roster_seq=locked.seq)


@transaction.atomic
def members_merge(*, keep: Player, drop: Player, actor: Actor, reason: str) -> Player:
    """Two records of one person become one: everything that points at ``drop`` points at
    ``keep`` (pairs, substitutes, score cards' mail, party places); ``drop`` is deleted.
    Each event touched is locked (in id order) and gets an audit entry naming both records,
    so its history says who was merged into whom; so does each party night where ``drop``
    had a place (its entry lists the places moved). ``keep`` takes ``drop``'s number and
    e-mail if it has none.

    The score cards move too (``_score_cards_merge``): deleting ``drop`` would delete its
    cards' rows with it (their foreign key cascades), and a card already sent would be
    forgotten, or a card skipped for want of an address would vanish from the console's
    counts and its button though the person is owed it."""
    _require_director(actor)
    if keep.pk == drop.pk:
        raise ServiceError("pick two different records to merge", field="drop")
    if not reason.strip():
        raise ServiceError("say why the two records are one person", field="reason")
    # A card's night counts as touched even where drop no longer plays (taken out of a
    # pair after the cards went): its row moves, so its night is locked and audited too.
    carded = set(ScoreCardMail.objects.filter(player_id=drop.pk)
                 .values_list("event_id", flat=True))
    event_ids = sorted(set(_events_of([keep.pk, drop.pk])) | carded)
    events = [_lock_event(event_id) for event_id in event_ids]
    # Then the party nights where drop has a place, in id order, before the players' rows:
    # a party's own writes take its lock, then insert places pointing at those rows.
    party_ids = (PartyPlayer.objects.filter(member=drop).order_by("party_id")
                 .values_list("party_id", flat=True).distinct())
    parties = {pk: _lock_party(Party(pk=pk)) for pk in party_ids}
    keep = Player.objects.select_for_update().get(pk=keep.pk)
    drop = Player.objects.select_for_update().get(pk=drop.pk)
    if keep.number and drop.number and keep.number != drop.number:
        raise ServiceError(f"both records have a member number ({keep.number} and "
                           f"{drop.number}): keep the one with the club's right number and "
                           "clear the other's first", field="drop")
    # One person has one place at a party night, as in one pair of a duplicate night.
    shared = (PartyPlayer.objects.filter(member=keep, party__players__member=drop)
              .select_related("party").first())
    if shared is not None:
        raise ServiceError(f"both records play at the party night {shared.party.name} "
                           f"({shared.party.date:%-d %b %Y}): they are two people",
                           field="drop")
    before = {"keep": {"id": keep.pk, "name": keep.name, "number": keep.number},
              "drop": {"id": drop.pk, "name": drop.name, "number": drop.number}}
    # The person as the merge leaves them: their cards are sent (or not) by these.
    email = keep.email or drop.email
    opted_out = keep.email_opt_out or drop.email_opt_out
    touched = set(_events_of([drop.pk])) | carded
    for event in events:
        if event.pk not in touched:
            continue
        pairs = list(Pair.objects.select_for_update().filter(
            Q(player_1=drop) | Q(player_2=drop), event=event).order_by("number"))
        for pair in pairs:
            if pair.player_1_id == keep.pk or pair.player_2_id == keep.pk:
                raise ServiceError(f"both records play in pair {pair.number} of "
                                   f"{event.name}: they are two people", field="drop")
        # One person plays in one pair of a night (decision 120): two pairs, two people.
        other = (Pair.objects.filter(Q(player_1=keep) | Q(player_2=keep), event=event)
                 .order_by("number").first())
        if pairs and other is not None:
            raise ServiceError(f"{drop.name} plays in pair {pairs[0].number} and {keep.name} "
                               f"in pair {other.number} of {event.name} "
                               f"({event.date:%-d %b %Y}): they are two people", field="drop")
        Pair.objects.filter(event=event, player_1=drop).update(player_1=keep)
        Pair.objects.filter(event=event, player_2=drop).update(player_2=keep)
        subs = Substitute.objects.filter(pair__event=event, player=drop)
        sub_count = subs.update(player=keep)
        cards = _score_cards_merge(event=event, keep=keep, drop=drop, email=email,
                                   opted_out=opted_out)
        Event.objects.filter(pk=event.pk).update(roster_seq=event.seq)  # the new name
        after = {"player": {"id": keep.pk, "name": keep.name, "number":
                            keep.number or drop.number},
                 "pairs": [p.number for p in pairs], "substitutes": sub_count}
        if cards:
            after["score_cards"] = cards
        _audit(event=event, actor=actor, action="merge players", before=before,
               after=after, reason=reason.strip())
    # A party night's player keeps the name the director listed that night; only the
    # link to the member's record moves (SET_NULL would cut it), and each night's audit
    # says so, as an event's does for its pairs. Read under drop's row lock: no place can
    # come to point at drop now, though one may have since the nights were locked above.
    places: dict[int, list[int]] = {}
    for party_id, number in (PartyPlayer.objects.filter(member=drop)
                             .order_by("party_id", "number").values_list("party_id", "number")):
        places.setdefault(party_id, []).append(number)
    PartyPlayer.objects.filter(member=drop).update(member=keep)
    merged = {"id": keep.pk, "name": keep.name, "number": keep.number or drop.number}
    for party_id, numbers in places.items():
        _party_audit(parties.get(party_id) or Party(pk=party_id), actor, "merge players",
                     before=before, after={"player": merged, "party_players": numbers},
                     reason=reason.strip())
    changed = []
    if not keep.number and drop.number:
        keep.number, changed = drop.number, ["number"]
    if not keep.email and drop.email:
        keep.email = drop.email
        changed.append("email")
    if drop.active and not keep.active:
        keep.active = True
        changed.append("active")
    if drop.email_opt_out and not keep.email_opt_out:  # the person said no: it holds
        keep.email_opt_out, keep.email_opt_out_at = True, drop.email_opt_out_at
        changed += ["email_opt_out", "email_opt_out_at"]
    drop.delete()
    if changed:
        keep.save(update_fields=changed)
    return keep


# A card that went, or may have, outranks one still to go, which outranks one skipped.
_CARD_RANK = {ScoreCardMail.Status.SENT: 3, ScoreCardMail.Status.SENDING: 3,
              ScoreCardMail.Status.FAILED: 3, ScoreCardMail.Status.PENDING: 2,
              ScoreCardMail.Status.NO_ADDRESS: 1, ScoreCardMail.Status.OPTED_OUT: 1}


def _score_cards_merge(*, event: Event, keep: Player, drop: Player, email: str,
                       opted_out: bool) -> int:
    """Move ``drop``'s score cards' mail rows of `event` to ``keep`` (the event is locked);
    how many moved. One card a player a publication (the rows' unique constraint): where
    both records have one (a substitute in one pair, a player in another), the card that
    went, or may have, is kept, so it is never sent twice; else the one waiting.

    A card skipped for want of an address, of the publication the console counts (the
    latest recorded, standings still final), is looked at again when the merged person
    has an address: waiting to be sent (the console counts it so and offers its button,
    as ``send_score_cards`` would have sent it anyway had the row gone), or skipped as
    opted out if either record had said no. Earlier publications' rows only move: nothing
    sends them any more.
    """
    moved = 0
    # Locked in id order, as the mail worker's claim locks one row at a time.
    for card in (ScoreCardMail.objects.select_for_update()
                 .filter(event=event, player_id__in=[keep.pk, drop.pk]).order_by("pk")):
        if card.player_id != drop.pk:
            continue
        own = (ScoreCardMail.objects.filter(event=event, publication=card.publication,
                                            player=keep).first())
        if own is not None:
            if _CARD_RANK[card.status] <= _CARD_RANK[own.status]:
                card.delete()
                continue
            own.delete()
        card.player = keep
        card.save(update_fields=["player", "updated_at"])
        moved += 1
    latest = (ScoreCardMail.objects.filter(event=event)
              .aggregate(latest=Max("publication"))["latest"])
    if latest is not None and event.published == Event.Published.FINAL and email:
        # As the mail service's first look at a player: an opt-out holds over an address.
        ScoreCardMail.objects.filter(
            event=event, publication=latest, player=keep,
            status=ScoreCardMail.Status.NO_ADDRESS,
        ).update(status=(ScoreCardMail.Status.OPTED_OUT if opted_out
                         else ScoreCardMail.Status.PENDING),
                 address=email, error="", updated_at=timezone.now())
    return moved


# --- players in a pair's line ------------------------------------------------------------


_PARSE = object()
# The words that begin a surname of several ("Cornelia Van Dusen", "Ludwig van Beethoven").
SURNAME_PARTICLES = frozenset({"van", "von", "de", "del", "della", "der", "den", "di", "da",
                               "du", "le", "la", "st", "st.", "ter", "ten"})


def name_parts(name: str) -> tuple[str, str]:
    """A name written whole as (first name, last name): the last word is the surname,
    or the words from a particle on ("Van Dusen", "de la Mare"), so that the list sorts
    Cornelia Van Dusen under V; "Mary Ann Smith" is Mary Ann, Smith."""
    words = name.split()
    if len(words) < 2:
        return "", name.strip()
    start = next((i for i in range(1, len(words) - 1)
                  if words[i].lower() in SURNAME_PARTICLES), len(words) - 1)
    return " ".join(words[:start]), " ".join(words[start:])


def player_for(token: str, *, current: Player | None = None, number=_PARSE) -> Player:
    """The player a pair's line names (see the module's docstring). ``current`` is the
    player in that seat now: a visitor keeps their record when only the spelling changes
    (their history stays theirs); a new visitor is created otherwise. With ``number``
    given (the night file's ``numbers``), ``token`` is only a name and ``number`` the
    member number (None: a visitor)."""
    token = token.strip()
    if number is not _PARSE:
        named = None
        if number is not None:
            named = {"name": token, "number": str(number).strip()}
    else:
        named = NAMED_NUMBER.match(token)
        if named is None and NUMBER.match(token) and token.isdigit():
            named = {"name": "", "number": token}
    if named:
        name, number = named["name"].strip(), named["number"]
        member = Player.objects.filter(number=number).first()
        if member is not None:
            return member
        if not name:
            raise ServiceError(f"no member is numbered {number}: to add a new member write "
                               f"the name and the number, like \"Ann Lee #{number}\"",
                               field="players")
        number = _check_number(number, "players")
        first, last = name_parts(name)
        return Player.objects.create(name=name[:80], number=number, first_name=first[:40],
                                     last_name=last[:40])
    if current is not None and current.number is None:
        if current.name != token:
            current.name = token[:80]
            current.save(update_fields=["name"])
        return current
    if current is not None and current.name == token:
        return current
    return Player.objects.create(name=token[:80])


@dataclass(frozen=True)
class Namesake:
    """A visitor in a pair whose name is exactly a member's: the pairs list read a name
    alone as a visitor (the rule above), though the director may have meant the member."""

    pair: int
    name: str
    numbers: tuple[str, ...]  # the members of that name not seated that night, active or not


def _name_key(name: str) -> str:
    return name.strip().lower()


@dataclass(frozen=True)
class NumberOtherwise:
    """A member number typed with a name that is not the member's: "Ann Lee #101", where
    member 101 is Cornelia Van Dusen (the number decides: she is seated)."""

    pair: int
    typed: str
    number: str
    member: str


def numbers_named_otherwise(lines: Sequence[Any]) -> list[NumberOtherwise]:
    """The pairs' lines' "Name #number" whose name is not the member's, in line order:
    a mistyped number seats another member without a word."""
    typed = []
    for line in lines:
        for token in line.players:
            named = NAMED_NUMBER.match(token.strip())
            if named and named["name"].strip():
                typed.append((line.number, token.strip(), named["name"].strip(),
                              named["number"]))
    members = dict(Player.objects.filter(number__in=[t[3] for t in typed])
                   .values_list("number", "name"))
    return [NumberOtherwise(pair, token, number, members[number])
            for pair, token, name, number in typed
            if number in members and _name_key(members[number]) != _name_key(name)]


def members_named(name: str) -> tuple[str, ...]:
    """The numbers of the members named exactly `name` (case and surrounding spaces
    aside), active or not; () for none. Reads only."""
    return tuple(sorted(
        Player.objects.exclude(number=None).annotate(key=Lower(Trim("name")))
        .filter(key=_name_key(name)).values_list("number", flat=True),
        key=lambda n: (len(n), n)))


def visitors_named_as_members(*, event: Event) -> list[Namesake]:
    """The event's visitors named exactly as a member is (case and surrounding spaces
    aside), in pair order: the pairs page warns of them after saving. Reads only.

    A member already seated that night is left out: the warning's advice (write the
    name with the member's number) would seat them twice, which the pairs list refuses
    (one person plays in one pair of a night, decision 120); the visitor is then someone
    else of that name. A visitor whose namesakes are all seated is no warning at all."""
    pairs = list(Pair.objects.filter(event=event).select_related("player_1", "player_2")
                 .order_by("number"))
    seated = {player.pk for pair in pairs for player in (pair.player_1, pair.player_2)}
    seats = [(pair.number, player.name) for pair in pairs
             for player in (pair.player_1, pair.player_2) if player.number is None]
    if not seats:
        return []
    members: dict[str, list[str]] = {}
    for number, name in (Player.objects.exclude(number=None).exclude(pk__in=seated)
                         .annotate(key=Lower(Trim("name")))
                         .filter(key__in={_name_key(name) for _, name in seats})
                         .values_list("number", "name")):
        members.setdefault(_name_key(name), []).append(number)
    return [Namesake(pair=pair, name=name,
                     numbers=tuple(sorted(members[_name_key(name)],
                                          key=lambda n: (len(n), n))))
            for pair, name in seats if _name_key(name) in members]
