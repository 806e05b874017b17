"""Public pages: the list of events and what each has published."""

from django.shortcuts import render

from .models import Event, Party


def home(request):
    events = Event.objects.all()
    if not request.user.is_staff:
        # The public sees only what the director has published.
        events = events.exclude(published=Event.Published.NONE)
    events = events[:50]
    # Party nights once started: their standings are public from the first round.
    parties = Party.objects.exclude(status=Party.Status.SETTING_UP)[:10]
    return render(request, "tournaments/home.html", {"events": events, "parties": parties})
