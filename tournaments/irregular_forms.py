"""The forms of the irregular-board pages (Duplicate Law B): a table's or the director's
report, and the director's steps. They check what is typed; the services decide the law."""

from django import forms

from .forms import number_field
from .inputs import no_control_characters
from .models import MAX_REASON, Board, Irregularity
from .presenters import IRREGULAR_FOUND
from .services import ServiceError

SEAT_CHOICES = [("", "Not known"), ("N", "North"), ("E", "East"), ("S", "South"),
                ("W", "West")]
STAGE_CHOICES = [
    ("original", "Before or during the original play"),
    ("before-overplay", "When we took the cards up to play them, before play began"),
    ("overplay", "After our play began"),
]
STAGE_FOUND = IRREGULAR_FOUND
STAGE_HELP = {
    "original": "Duplicate Law B(1): a new deal.",
    "before-overplay": "Duplicate Law B(2): the board goes back to the table it came from, "
                      "to be put right there.",
    "overplay": "Duplicate Law B(3): at two tables a new deal; at more, the hands are put "
                "right and passed on, and this table gets an average or a fouled board.",
}


class ReportForm(forms.Form):
    """What was found, and when: the seats or the card out of place if known."""

    stage = forms.ChoiceField(label="When was it found?", choices=STAGE_CHOICES,
                              widget=forms.RadioSelect,
                              error_messages={"required": "Say when it was found"})
    short_seat = forms.ChoiceField(label="The short hand (too few cards)",
                                   choices=SEAT_CHOICES, required=False)
    surplus_seat = forms.ChoiceField(label="The hand with too many cards",
                                     choices=SEAT_CHOICES, required=False)
    misplaced_card = forms.CharField(label="The card found out of place (like S5 or HT)",
                                     required=False, max_length=3)
    note = forms.CharField(label="Anything else the director should know", required=False,
                           max_length=MAX_REASON, validators=[no_control_characters])


class DirectorReportForm(ReportForm):
    """The director reports for any board, at any table and round (or none)."""

    board = number_field("Board", 1, 999, missing="Which board?",
                         words="A board's number is {bound}")
    meeting = forms.ChoiceField(label="Found at", required=False)

    def __init__(self, *args, meetings=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["stage"].choices = [(key, text[:1].upper() + text[1:])
                                        for key, text in IRREGULAR_FOUND.items()]
        self.fields["meeting"].choices = [("", "No table (the director found it)")] + [
            (str(m.pk), f"Round {m.round}, table {m.table}"
             + (f" (section {m.section.name})" if getattr(m, "several", False) else ""))
            for m in meetings]


# How a new deal is made (Duplicate Law B(1), or B(3) at two tables): re-dealt by hand at
# the table (nobody knows the hands, so none are recorded or published), dealt here by the
# program (the board must then be made up from it), or a deal the director gives as PBN.
DEALT = {
    "hand": "Re-dealt at the table by hand (no hands recorded)",
    "here": "Dealt here, shuffled securely (make up the board from it)",
    "pbn": "A deal I give as PBN",
}
# A way of dealing that is none of these (the API's "dealt"; the page offers only these).
DEALT_UNKNOWN = ('say how the new deal is dealt: "hand" (re-dealt at the table by hand, no '
                 'hands recorded), "here" (dealt here, shuffled securely) or "pbn" (a deal '
                 'you give as PBN), not "{input}"')


def dealt_default(board: Board) -> str:
    """Dealt here for a board made up from a hand record; by hand for one without (a club
    that deals at the table, a whist night without deals)."""
    return "here" if board.deal else "hand"


def new_deal_how(dealt: str, deal: str, board: Board) -> tuple[str, str]:
    """How a new deal is dealt, and the PBN to give irregularity_new_deal, from what the
    director said (the page's StepForm and the API's step alike): `dealt` ("hand", "here"
    or "pbn") when said; else "pbn" when a deal is given, else the default for the board.
    "pbn" with no deal is refused, and a deal given with another choice (the page's PBN
    box filled in, its choice left at the default): it would have been dropped unsaid."""
    deal = (deal or "").strip()
    how = dealt or ("pbn" if deal else dealt_default(board))
    if how not in DEALT:
        raise ServiceError(DEALT_UNKNOWN.format(input=how), field="dealt")
    if how == "pbn" and not deal:
        raise ServiceError("give the new deal as PBN, or choose how it is dealt", field="deal")
    if how != "pbn" and deal:
        way = "re-dealt at the table by hand" if how == "hand" else "dealt here"
        raise ServiceError(f"a deal is given as PBN, but the board is to be {way}: choose "
                           "“a deal I give as PBN” to use it, or clear it", field="deal")
    return how, deal


class StepForm(forms.Form):
    """One of the director's steps on a report."""

    ACTIONS = ["new-deal", "send-back", "rectified", "rule", "cancel", "withdraw", "undo"]

    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    # A new deal's way of being dealt; left out (a page from before the choice), a deal
    # given as PBN when there is one, else the page's default for the board.
    dealt = forms.ChoiceField(choices=list(DEALT.items()), required=False)
    deal = forms.CharField(label="The new deal as PBN (leave blank to deal it here)",
                           required=False, max_length=100)
    short_seat = forms.ChoiceField(choices=SEAT_CHOICES, required=False)
    surplus_seat = forms.ChoiceField(choices=SEAT_CHOICES, required=False)
    reason = forms.CharField(label="Why (for the audit trail)", required=False,
                             max_length=MAX_REASON, validators=[no_control_characters])


STATUS_WORDS = dict(Irregularity.Status.choices)
