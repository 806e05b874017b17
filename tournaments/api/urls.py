"""The REST API, under /api/ (schema at /api/schema/, browsable docs at /api/docs/)."""

from django.urls import path

from . import views

app_name = "api"

EVENT = "events/<int:event_id>/"
TABLE = EVENT + "sections/<str:section>/tables/<int:table>/"
RESULT = EVENT + "results/<int:result_id>/"

urlpatterns = [
    path("", views.ApiRoot.as_view(), name="root"),
    path("events/", views.EventList.as_view(), name="events"),
    path(EVENT, views.EventDetail.as_view(), name="event"),
    path(EVENT + "status/", views.EventStatus.as_view(), name="event-status"),
    path(EVENT + "publish/", views.EventPublish.as_view(), name="event-publish"),
    path(EVENT + "pairs/", views.PairList.as_view(), name="pairs"),
    path(EVENT + "pairs/<int:number>/", views.PairDetail.as_view(), name="pair"),
    path(EVENT + "pairs/<int:number>/scorecard/", views.ScorecardView.as_view(),
         name="scorecard"),
    path(EVENT + "teams/", views.TeamList.as_view(), name="teams"),
    path(EVENT + "boards/", views.BoardList.as_view(), name="boards"),
    path(EVENT + "boards/<int:number>/", views.BoardDetail.as_view(), name="board"),
    path(EVENT + "boards/<int:number>/traveller/", views.TravellerView.as_view(),
         name="traveller"),
    path(EVENT + "movement/", views.MovementView.as_view(), name="movement"),
    path(EVENT + "sections/<str:section>/rounds/<int:round>/agree/",
         views.RoundAgree.as_view(), name="round-agree"),
    path(TABLE, views.TableCurrentRound.as_view(), name="table-current"),
    path(TABLE + "rounds/<int:round>/", views.TableRound.as_view(), name="table-round"),
    path(TABLE + "rounds/<int:round>/agree/", views.TableRoundAgree.as_view(),
         name="table-round-agree"),
    path(EVENT + "results/", views.ResultList.as_view(), name="results"),
    path(RESULT, views.ResultDetail.as_view(), name="result"),
    path(RESULT + "confirm/", views.ResultConfirm.as_view(), name="result-confirm"),
    path(RESULT + "correct/", views.ResultCorrect.as_view(), name="result-correct"),
    path(RESULT + "void/", views.ResultVoid.as_view(), name="result-void"),
    path(EVENT + "rulings/", views.RulingList.as_view(), name="rulings"),
    path(EVENT + "score-preview/", views.ScorePreview.as_view(), name="score-preview"),
    path(EVENT + "standings/", views.StandingsView.as_view(), name="standings"),
    path(EVENT + "audit/", views.AuditList.as_view(), name="audit"),
    path(EVENT + "audit/<int:entry_id>/undo/", views.AuditUndo.as_view(), name="audit-undo"),
    path("table/", views.TableMe.as_view(), name="table"),
]
