"""A board: one deal, played at several tables and compared across them."""

from django.db import models
from django.db.models import Q

from scoring.engine import dealer_for_board


class Board(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    # PBN Deal notation, always from North ("N:spades.hearts.diamonds.clubs ..."); blank
    # when the hand record is not known, and then tables enter honours themselves.
    deal = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="board_number_unique_in_event"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Board {self.number}"

    @property
    def dealer(self) -> str:
        return dealer_for_board(self.number)
