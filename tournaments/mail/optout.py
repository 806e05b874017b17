"""The one-click opt-out link every score card's mail carries.

The link holds the player's id, signed with the site's key (``django.core.signing``) and
a salt of its own, so it cannot be made up or turned into another player's; it does not
expire (a player may click it in a mail of last year). It names the player, not the
address: a player who changes their address stays opted out.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

from ..models import Player

SALT = "tournaments.mail.opt-out"


def opt_out_token(player: Player) -> str:
    # A Signer, not dumps(): no timestamp, so a player's link is the same in every mail.
    return signing.Signer(salt=SALT).sign_object({"player": player.pk})


def opt_out_url(player: Player) -> str:
    return settings.SITE_URL + reverse("mail-opt-out", kwargs={"token": opt_out_token(player)})


def player_for_token(token: str) -> Player | None:
    """The player a link was made for; None for a link that is not ours or was altered,
    or a player who is no longer on the list."""
    try:
        data = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError):
        return None
    pk = data.get("player") if isinstance(data, dict) else None
    if not isinstance(pk, int):
        return None
    return Player.objects.filter(pk=pk).first()
