"""Routes of the REST API (mounted at /api/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from arena.api import views
from arena.api.health import HealthView

router = DefaultRouter()
router.register("games", views.GameViewSet, basename="game")
router.register("bots", views.BotViewSet, basename="bot")
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("matches", views.MatchViewSet, basename="match")
router.register("leaderboards", views.LeaderboardViewSet, basename="leaderboard")
router.register("challenges", views.ChallengeViewSet, basename="challenge")
router.register("ladders", views.LadderViewSet, basename="ladder")
router.register("tokens", views.ApiTokenViewSet, basename="token")

urlpatterns = [
    path("health/", HealthView.as_view(), name="health"),
    path("users/", views.RegisterView.as_view(), name="user-register"),
    path("users/me/", views.MeView.as_view(), name="user-me"),
    path("token/", views.TokenView.as_view(), name="token"),
    path("version/", views.VersionView.as_view(), name="version"),
    *router.urls,
]
