"""The table's irregular-board pages (Duplicate Law B): report "a hand has the wrong
number of cards" for a board of the round the table is at, and, when the board went back
to be put right (B(2)), mark it rectified once it is back."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..irregular_forms import STAGE_HELP, ReportForm
from ..models import Irregularity, TableCode
from .table import _actor, _board_of, _flash, _later_round, _meeting, with_table

# The phone's words for when it was found. Duplicate Law B turns on the "original play",
# the board's first play, and the "overplay" at every table after it: so a player tells
# the stages apart by whether another table had played the board before them, then by
# whether their own bidding had begun. (The values stored are the form's.)
TABLE_STAGES = [
    ("original", "No table had played this board before us: we found it while dealing, "
                 "bidding or playing it"),
    ("before-overplay", "Another table had played it before us: we found it as we took the "
                        "cards out of the board, before anyone bid"),
    ("overplay", "Another table had played it before us: we found it after our bidding or "
                 "play had begun"),
]


@require_http_methods(["GET", "POST"])
@with_table
def report(request: HttpRequest, table: TableCode, round_number: int, board: int
           ) -> HttpResponse:
    """The table tells the director a hand has the wrong number of cards, and when."""
    meeting = _meeting(table, round_number)
    board_row = _board_of(meeting, board)
    if (refused := _later_round(request, table, meeting, board)) is not None:
        return refused
    form = ReportForm(request.POST or None)
    form.fields["stage"].choices = TABLE_STAGES
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.irregularity_report(
                event=table.section.event, board=board, stage=data["stage"],
                actor=_actor(table), meeting=meeting, short_seat=data["short_seat"],
                surplus_seat=data["surplus_seat"], misplaced_card=data["misplaced_card"],
                note=data["note"])
        except services.ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            _flash(request, f"Board {board} reported. The director is on the way: do not "
                            "play it until the director says so.")
            return redirect("table-round", code=table.code, round_number=meeting.round)
    return render(request, "tournaments/table/irregular.html", {
        "table": table, "event": table.section.event, "meeting": meeting, "board": board_row,
        "form": form, "stage_help": STAGE_HELP,
    }, status=400 if form.errors else 200)


@require_POST
@with_table
def rectified(request: HttpRequest, table: TableCode, irregularity_id: int) -> HttpResponse:
    """The board that went back (B(2)) is here again, put right: the table may play it."""
    irr = get_object_or_404(Irregularity.objects.select_related("board", "meeting"),
                            pk=irregularity_id, event=table.section.event)
    try:
        services.irregularity_rectified(irregularity=irr, actor=_actor(table))
    except services.ServiceError as exc:
        _flash(request, exc.message, error=True)
    else:
        if irr.meeting is not None and irr.meeting.table != table.table:
            # The table it went back to: the table that found it plays it.
            _flash(request, f"Board {irr.board.number} is put right: take it back to table "
                            f"{irr.meeting.table}, which plays it now.")
        else:
            _flash(request, f"Board {irr.board.number} is back and put right: play it now.")
    if irr.meeting is not None and irr.meeting.table == table.table:
        return redirect("table-round", code=table.code, round_number=irr.meeting.round)
    return redirect("table-home", code=table.code)
