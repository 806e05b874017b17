"""Every page of the web front: the public results, the table's phone, the director's console.

The views live in public.py, table.py and director.py; their addresses live here, the
director's console under director/.
"""

from django.urls import include, path

from . import director, public, table

public_urlpatterns = [
    path("events/<int:pk>/", public.event_page, name="public-event"),
    path("events/<int:pk>/standings/", public.standings_page, name="public-standings"),
    path("events/<int:pk>/boards/<int:number>/", public.board_page, name="public-board"),
    path("events/<int:pk>/pairs/<int:number>/", public.pair_page, name="public-pair"),
    path("events/<int:pk>/live/", public.live, name="public-live"),
]

table_urlpatterns = [
    path("t/", table.enter_code, name="table-enter"),
    path("t/<str:code>/", table.home, name="table-home"),
    path("t/<str:code>/preview/", table.preview, name="table-preview"),
    path("t/<str:code>/round/<int:round_number>/", table.home, name="table-round"),
    path("t/<str:code>/round/<int:round_number>/agree/", table.agree, name="table-agree"),
    path("t/<str:code>/round/<int:round_number>/state.json", table.state, name="table-state"),
    path("t/<str:code>/round/<int:round_number>/board/<int:board>/", table.board_page,
         name="table-board"),
    path("t/<str:code>/round/<int:round_number>/board/<int:board>/change/", table.change,
         name="table-change"),
    path("t/<str:code>/round/<int:round_number>/board/<int:board>/confirm/", table.confirm,
         name="table-confirm"),
    path("t/<str:code>/board/<int:board>/traveller/", table.traveller, name="table-traveller"),
]

director_urlpatterns = [
    path("", director.events, name="director-events"),
    path("events/new/", director.event_new, name="director-event-new"),
    path("events/<int:event_id>/", director.event_detail, name="director-event"),
    path("events/<int:event_id>/grid.json", director.grid_json, name="director-grid"),
    path("events/<int:event_id>/status/", director.event_status, name="director-status"),
    path("events/<int:event_id>/close/", director.event_close, name="director-close"),
    path("events/<int:event_id>/agree/", director.event_agree, name="director-agree-event"),
    path("events/<int:event_id>/reopen/", director.event_reopen, name="director-reopen"),
    path("events/<int:event_id>/correction-period/", director.correction_period,
         name="director-correction-period"),
    path("events/<int:event_id>/publish/", director.event_publish, name="director-publish"),
    path("events/<int:event_id>/pairs/", director.pairs, name="director-pairs"),
    path("events/<int:event_id>/movement/", director.movement, name="director-movement"),
    path("events/<int:event_id>/boards/", director.boards, name="director-boards"),
    path("events/<int:event_id>/tables/", director.tables, name="director-tables"),
    path("events/<int:event_id>/guide-cards/", director.guide_cards, name="director-guide-cards"),
    path("events/<int:event_id>/meetings/<int:meeting_id>/", director.meeting,
         name="director-meeting"),
    path("events/<int:event_id>/meetings/<int:meeting_id>/boards/<int:board>/enter/",
         director.enter_result, name="director-enter"),
    path("events/<int:event_id>/meetings/<int:meeting_id>/boards/<int:board>/rule/",
         director.rule_board, name="director-rule"),
    path("events/<int:event_id>/boards/<int:board>/preview/", director.preview,
         name="director-preview"),
    path("events/<int:event_id>/results/<int:result_id>/correct/", director.correct_result,
         name="director-correct"),
    path("events/<int:event_id>/results/<int:result_id>/void/", director.void_result,
         name="director-void"),
    path("events/<int:event_id>/sections/<int:section_id>/rounds/<int:round_number>/agree/",
         director.agree_round, name="director-agree"),
    path("events/<int:event_id>/audit/", director.audit, name="director-audit"),
    path("events/<int:event_id>/audit/<int:entry_id>/undo/", director.undo, name="director-undo"),
]

urlpatterns = [
    *public_urlpatterns,
    *table_urlpatterns,
    path("director/", include(director_urlpatterns)),
]
