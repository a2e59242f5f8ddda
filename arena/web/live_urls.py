"""Routes of the live pages' stamps (arena/web/live_views.py), beside the pages they serve."""

from django.urls import path

from arena.web import live_views

urlpatterns = [
    path("games/<str:game>/live/", live_views.leaderboard_stamp, name="web-live-leaderboard"),
    path("tournaments/<int:pk>/live/", live_views.tournament_stamp, name="web-live-tournament"),
]
