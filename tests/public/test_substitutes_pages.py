"""The public standings and score card show a substitute beside the pair's players."""

from tournaments import services
from tournaments.models import Pair


def test_public_pages_show_the_substitute(night, director, client):
    services.substitute_set(event=night.event, number=1, seat=1, player="Carl Day",
                            from_round=2, actor=services.Actor.director(director),
                            reason="ill")
    pair = Pair.objects.get(event=night.event, number=1)
    text = f"(Carl Day for {pair.names[0]} from round 2)"
    card = client.get(f"/events/{night.event.pk}/pairs/1/").content.decode()
    assert text in card
    page = client.get(f"/events/{night.event.pk}/standings/").content.decode()
    assert text in page
