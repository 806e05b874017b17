"""The REST API, under /api/ (schema at /api/schema/, browsable docs at /api/docs/)."""

from django.urls import path, re_path

from .. import converters  # noqa: F401  (registers the id, number and name converters)
from . import adjustments, exports, irregular, members, sections, views

app_name = "api"

EVENT = "events/<id:event_id>/"
TABLE = EVENT + "sections/<name:section>/tables/<number:table>/"
RESULT = EVENT + "results/<id:result_id>/"

urlpatterns = [
    path("", views.ApiRoot.as_view(), name="root"),
    path("events/", views.EventList.as_view(), name="events"),
    path("members/", members.MemberList.as_view(), name="members"),
    path("members/import/", members.MembersImport.as_view(), name="members-import"),
    path("members/<id:player_id>/", members.MemberDetail.as_view(), name="member"),
    path("members/<id:player_id>/merge/", members.MemberMerge.as_view(), name="member-merge"),
    path("rubbers/", views.RubberList.as_view(), name="rubbers"),
    path("rubbers/<str:code>/", views.RubberDetail.as_view(), name="rubber"),
    path("rubbers/<str:code>/deals/", views.RubberDeals.as_view(), name="rubber-deals"),
    path("rubbers/<str:code>/deals/last/", views.RubberLastDeal.as_view(),
         name="rubber-last-deal"),
    path(EVENT, views.EventDetail.as_view(), name="event"),
    path(EVENT + "status/", views.EventStatus.as_view(), name="event-status"),
    path(EVENT + "publish/", views.EventPublish.as_view(), name="event-publish"),
    path(EVENT + "pairs/", views.PairList.as_view(), name="pairs"),
    path(EVENT + "pairs/late/", views.LatePair.as_view(), name="pair-late"),
    path(EVENT + "pairs/<number:number>/", views.PairDetail.as_view(), name="pair"),
    path(EVENT + "pairs/<number:number>/leave/", views.PairLeave.as_view(), name="pair-leave"),
    path(EVENT + "pairs/<number:number>/substitutes/", views.PairSubstitutes.as_view(),
         name="pair-substitutes"),
    path(EVENT + "pairs/<number:number>/scorecard/", views.ScorecardView.as_view(),
         name="scorecard"),
    path(EVENT + "teams/", views.TeamList.as_view(), name="teams"),
    path(EVENT + "boards/", views.BoardList.as_view(), name="boards"),
    path(EVENT + "boards/<number:number>/", views.BoardDetail.as_view(), name="board"),
    path(EVENT + "boards/<number:number>/traveller/", views.TravellerView.as_view(),
         name="traveller"),
    path(EVENT + "movement/", views.MovementView.as_view(), name="movement"),
    path(EVENT + "movement/change/", views.MovementChange.as_view(), name="movement-change"),
    path(EVENT + "sections/", sections.SectionList.as_view(), name="sections"),
    path(EVENT + "sections/<name:section>/pairs/", sections.SectionPairs.as_view(),
         name="section-pairs"),
    path(EVENT + "section-scoring/", sections.SectionScoring.as_view(),
         name="section-scoring"),
    path(EVENT + "sections/<name:section>/rounds/<number:round>/agree/",
         views.RoundAgree.as_view(), name="round-agree"),
    path(TABLE, views.TableCurrentRound.as_view(), name="table-current"),
    path(TABLE + "rounds/<number:round>/", views.TableRound.as_view(), name="table-round"),
    path(TABLE + "rounds/<number:round>/agree/", views.TableRoundAgree.as_view(),
         name="table-round-agree"),
    path(TABLE + "rounds/<number:round>/late-play/", views.TableRoundLatePlay.as_view(),
         name="table-round-late-play"),
    path(TABLE + "rounds/<number:round>/late-play/withdraw/",
         views.TableRoundLatePlayWithdraw.as_view(), name="table-round-late-play-withdraw"),
    path(TABLE + "rounds/<number:round>/not-played/", views.TableRoundNotPlayed.as_view(),
         name="table-round-not-played"),
    path(EVENT + "results/", views.ResultList.as_view(), name="results"),
    path(RESULT, views.ResultDetail.as_view(), name="result"),
    path(RESULT + "confirm/", views.ResultConfirm.as_view(), name="result-confirm"),
    path(RESULT + "correct/", views.ResultCorrect.as_view(), name="result-correct"),
    path(RESULT + "void/", views.ResultVoid.as_view(), name="result-void"),
    path(EVENT + "rulings/", views.RulingList.as_view(), name="rulings"),
    path(EVENT + "club-adjustments/", adjustments.ClubAdjustments.as_view(),
         name="club-adjustments"),
    path(EVENT + "adjusted-scores/", adjustments.AdjustedScores.as_view(),
         name="adjusted-scores"),
    path(EVENT + "assigned-scores/", adjustments.AssignedScores.as_view(),
         name="assigned-scores"),
    path(EVENT + "score-preview/", views.ScorePreview.as_view(), name="score-preview"),
    path(EVENT + "standings/", views.StandingsView.as_view(), name="standings"),
    path(EVENT + "audit/", views.AuditList.as_view(), name="audit"),
    path(EVENT + "exports/<name:fmt>/", exports.ResultsExport.as_view(), name="results-export"),
    path(EVENT + "audit/<id:entry_id>/undo/", views.AuditUndo.as_view(), name="audit-undo"),
    path(EVENT + "irregularities/", irregular.IrregularityList.as_view(),
         name="irregularities"),
    path(EVENT + "irregularities/<id:irregularity_id>/", irregular.IrregularityDetail.as_view(),
         name="irregularity"),
    path(EVENT + "irregularities/<id:irregularity_id>/<name:step>/",
         irregular.IrregularityStep.as_view(), name="irregularity-step"),
    path("table/", views.TableMe.as_view(), name="table"),
    # Last: any other address under /api/ (a number out of its column's range, a name
    # with a control character, a typo) is a JSON 404, never Django's HTML page.
    re_path(r"^[\s\S]*$", views.NoSuchAddress.as_view(), name="no-such-address"),
]
