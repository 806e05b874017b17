"""Undoing the director's correction gives the result back as it stood, its confirmation
too: the table page's "By" reads "table 1; confirmed by E–W pair 3" again, not "table 1"
beside a status "Confirmed by the opponents" (the audit snapshot must keep who confirmed,
or the undo restores the status without it)."""

import pytest

from tournaments import services
from tournaments.models import AuditEntry, Meeting, Result, Section
from tournaments.services import Actor

pytestmark = pytest.mark.django_db

THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9,
                "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}
FOUR_HEARTS = {"contract": {"level": 4, "denomination": "H", "declarer": "S"}, "tricks": 9,
               "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}


def test_undoing_a_correction_gives_the_confirmation_back(director_client, event, director):
    section = Section.objects.get(event=event)
    m = Meeting.objects.get(section=section, round=1, table=1)
    table = Actor.at_table(section, 1)
    result, _ = services.result_record(event=event, board=1, ns=1, ew=3, data=THREE_HEARTS,
                                       actor=table, meeting=m)
    services.result_confirm(result=result, actor=table, by="E–W pair 3")
    result.refresh_from_db()
    services.result_correct(result=result, actor=Actor.director(director), data=FOUR_HEARTS,
                            reason="bid four")
    correction = AuditEntry.objects.get(event=event, action="correct")
    services.audit_undo(entry=correction, actor=Actor.director(director))
    result = Result.objects.get(pk=result.pk)
    assert (result.status, result.confirmed_by) == ("confirmed", "E–W pair 3")
    page = director_client.get(f"/director/events/{event.pk}/meetings/{m.pk}/").content.decode()
    line = page.split('data-testid="meeting-board-1"')[1].split("</tr>")[0]
    assert "table 1; confirmed by E–W pair 3" in line
