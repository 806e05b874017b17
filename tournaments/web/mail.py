"""The page behind the opt-out link of a score card's mail.

GET shows who the link is for and a button; it changes nothing (a mail scanner that
follows every link must not opt anyone out). POST opts out: the button, or a mail
program's one-click request (RFC 8058: ``List-Unsubscribe=One-Click`` posted to the
address of the ``List-Unsubscribe`` header, with no cookie and no CSRF token). The signed
link is the player's word, so the POST needs no CSRF token: a forged form would need the
link, which only the player's mail holds. The answer says, in words, what was done; a
second button sends the cards again.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from .. import services
from ..mail.optout import player_for_token


def _masked(address: str) -> str:
    """a•••@example.com: enough for the player to know the address, not for a stranger."""
    name, _, domain = address.partition("@")
    return f"{name[:1]}•••@{domain}" if domain else ""


@csrf_exempt
@never_cache
def opt_out(request: HttpRequest, token: str) -> HttpResponse:
    player = player_for_token(token)
    if player is None:
        return render(request, "tournaments/public/opt_out.html", {"player": None}, status=404)
    done = ""
    if request.method == "POST":
        resume = request.POST.get("resume") == "1"
        player = services.player_email_opt_out(player=player, opted_out=not resume)
        done = "resumed" if resume else "stopped"
    return render(request, "tournaments/public/opt_out.html", {
        "player": player, "address": _masked(player.email), "done": done})
