"""Routes of the pages (mounted at the site root)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from arena.web import author_views, views

urlpatterns = [
    path("", views.home, name="web-home"),
    path("games/<str:game>/", views.leaderboard, name="web-leaderboard"),
    path("bots/<int:pk>/", views.bot_detail, name="web-bot"),
    path("bots/<int:pk>/upload/", author_views.upload_version, name="web-upload-version"),
    path(
        "bots/<int:pk>/versions/<int:number>/",
        author_views.version_detail,
        name="web-version",
    ),
    path("bots/<int:pk>/challenge/", author_views.challenge_new, name="web-challenge-new"),
    path("bots/<int:pk>/active/", author_views.bot_active, name="web-bot-active"),
    path(
        "bots/<int:pk>/ladder/resume/",
        author_views.bot_ladder_resume,
        name="web-bot-ladder-resume",
    ),
    path("tournaments/", views.tournaments, name="web-tournaments"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="web-tournament"),
    path("matches/<int:pk>/", views.match_detail, name="web-match"),
    path("challenges/<int:pk>/", author_views.challenge_detail, name="web-challenge"),
    path("challenges/<int:pk>/cancel/", author_views.challenge_cancel, name="web-challenge-cancel"),
    path("signup/", author_views.signup, name="web-signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="web/login.html"),
        name="web-login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="web-logout"),
    path("my/bots/", author_views.my_bots, name="web-my-bots"),
    path("my/tokens/", author_views.tokens, name="web-tokens"),
    path("my/tokens/<int:pk>/revoke/", author_views.token_revoke, name="web-token-revoke"),
    path("my/tokens/login/revoke/", author_views.login_token_revoke, name="web-login-token-revoke"),
    path("upload/", author_views.upload, name="web-upload"),
]
