"""Every page of the web front: the public results, the table's phone, the director's console.

The views live in public.py, table.py, director.py and director_<topic>.py; their
addresses live here, the director's console under director/.
"""

from django.urls import include, path

from .. import converters  # noqa: F401  (registers the id, number and name converters)
from . import (
    director,
    director_adjust,
    director_irregular,
    director_late,
    director_movement,
    director_pairs,
    director_scoring,
    director_sections,
    pad,
    public,
    table,
    table_irregular,
)

public_urlpatterns = [
    path("events/<id:pk>/", public.event_page, name="public-event"),
    path("events/<id:pk>/standings/", public.standings_page, name="public-standings"),
    path("events/<id:pk>/boards/<number:number>/", public.board_page, name="public-board"),
    path("events/<id:pk>/pairs/<number:number>/", public.pair_page, name="public-pair"),
    path("events/<id:pk>/live/", public.live, name="public-live"),
]

table_urlpatterns = [
    path("t/", table.enter_code, name="table-enter"),
    path("t/<name:code>/", table.home, name="table-home"),
    path("t/<name:code>/preview/", table.preview, name="table-preview"),
    path("t/<name:code>/round/<number:round_number>/", table.home, name="table-round"),
    path("t/<name:code>/round/<number:round_number>/agree/", table.agree, name="table-agree"),
    path("t/<name:code>/round/<number:round_number>/state.json", table.state, name="table-state"),
    path("t/<name:code>/round/<number:round_number>/board/<number:board>/", table.board_page,
         name="table-board"),
    path("t/<name:code>/round/<number:round_number>/board/<number:board>/change/", table.change,
         name="table-change"),
    path("t/<name:code>/round/<number:round_number>/board/<number:board>/confirm/", table.confirm,
         name="table-confirm"),
    path("t/<name:code>/round/<number:round_number>/board/<number:board>/irregular/",
         table_irregular.report, name="table-irregular"),
    path("t/<name:code>/irregular/<id:irregularity_id>/rectified/", table_irregular.rectified,
         name="table-irregular-rectified"),
    path("t/<name:code>/board/<number:board>/traveller/", table.traveller, name="table-traveller"),
]

pad_urlpatterns = [
    path("pad/", pad.home, name="pad-home"),
    path("pad/new/", pad.create, name="pad-create"),
    path("pad/<str:code>/", pad.sheet, name="pad-sheet"),
    path("pad/<str:code>/deal/", pad.deal, name="pad-deal"),
    path("pad/<str:code>/last/", pad.correct, name="pad-correct"),
    path("pad/<str:code>/preview/", pad.preview, name="pad-preview"),
    path("pad/<str:code>/print/", pad.print_sheet, name="pad-print"),
    path("pad/<str:code>/print/sheet.pdf", pad.print_file, name="pad-print-file"),
]

director_urlpatterns = [
    path("", director.events, name="director-events"),
    path("events/new/", director.event_new, name="director-event-new"),
    path("events/<id:event_id>/", director.event_detail, name="director-event"),
    path("events/<id:event_id>/grid.json", director.grid_json, name="director-grid"),
    path("events/<id:event_id>/status/", director.event_status, name="director-status"),
    path("events/<id:event_id>/close/", director.event_close, name="director-close"),
    path("events/<id:event_id>/agree/", director.event_agree, name="director-agree-event"),
    path("events/<id:event_id>/reopen/", director.event_reopen, name="director-reopen"),
    path("events/<id:event_id>/correction-period/", director.correction_period,
         name="director-correction-period"),
    path("events/<id:event_id>/sections/", director_sections.sections,
         name="director-sections"),
    path("events/<id:event_id>/not-played-scoring/", director_scoring.not_played_scoring,
         name="director-not-played-scoring"),
    path("events/<id:event_id>/publish/", director.event_publish, name="director-publish"),
    path("events/<id:event_id>/pairs/", director.pairs, name="director-pairs"),
    path("events/<id:event_id>/pairs/late/", director_pairs.late_pair, name="director-late-pair"),
    path("events/<id:event_id>/pairs/leaves/", director_pairs.pair_leaves,
         name="director-pair-leaves"),
    path("events/<id:event_id>/pairs/substitute/", director_pairs.substitute,
         name="director-substitute"),
    path("events/<id:event_id>/movement/", director.movement, name="director-movement"),
    path("events/<id:event_id>/boards/", director.boards, name="director-boards"),
    path("events/<id:event_id>/tables/", director.tables, name="director-tables"),
    path("events/<id:event_id>/guide-cards/", director.guide_cards, name="director-guide-cards"),
    path("events/<id:event_id>/movement/change/", director_movement.movement_change,
         name="director-movement-change"),
    path("events/<id:event_id>/guide-cards/from/<number:round_number>/",
         director_movement.guide_cards_from, name="director-guide-cards-from"),
    path("events/<id:event_id>/meetings/<id:meeting_id>/", director.meeting,
         name="director-meeting"),
    path("events/<id:event_id>/meetings/<id:meeting_id>/boards/<number:board>/enter/",
         director.enter_result, name="director-enter"),
    path("events/<id:event_id>/meetings/<id:meeting_id>/boards/<number:board>/rule/",
         director.rule_board, name="director-rule"),
    path("events/<id:event_id>/meetings/<id:meeting_id>/not-played/", director_late.not_played,
         name="director-not-played"),
    path("events/<id:event_id>/meetings/<id:meeting_id>/late/", director_late.late_leave,
         name="director-late"),
    path("events/<id:event_id>/meetings/<id:meeting_id>/boards/<number:board>/adjusted/",
         director_adjust.adjusted_score, name="director-adjusted"),
    path("events/<id:event_id>/meetings/<id:meeting_id>/boards/<number:board>/assigned/",
         director_adjust.assigned_score, name="director-assigned"),
    path("events/<id:event_id>/club-adjustments/", director_adjust.club_adjustments,
         name="director-club-adjustments"),
    path("events/<id:event_id>/boards/<number:board>/preview/", director.preview,
         name="director-preview"),
    path("events/<id:event_id>/results/<id:result_id>/correct/", director.correct_result,
         name="director-correct"),
    path("events/<id:event_id>/results/<id:result_id>/void/", director.void_result,
         name="director-void"),
    path("events/<id:event_id>/sections/<id:section_id>/rounds/<number:round_number>/agree/",
         director.agree_round, name="director-agree"),
    path("events/<id:event_id>/audit/", director.audit, name="director-audit"),
    path("events/<id:event_id>/irregular/", director_irregular.irregular_list,
         name="director-irregulars"),
    path("events/<id:event_id>/irregular/<id:irregularity_id>/",
         director_irregular.irregular_detail, name="director-irregular"),
    path("events/<id:event_id>/irregular/<id:irregularity_id>/step/",
         director_irregular.irregular_step, name="director-irregular-step"),
    path("events/<id:event_id>/audit/<id:entry_id>/undo/", director.undo, name="director-undo"),
]

urlpatterns = [
    *public_urlpatterns,
    *table_urlpatterns,
    *pad_urlpatterns,
    path("director/", include(director_urlpatterns)),
]
