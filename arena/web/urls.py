"""Routes of the pages (mounted at the site root)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from arena.web import views

urlpatterns = [
    path("", views.home, name="web-home"),
    path("games/<str:game>/", views.leaderboard, name="web-leaderboard"),
    path("bots/<int:pk>/", views.bot_detail, name="web-bot"),
    path("bots/<int:pk>/active/", views.bot_active, name="web-bot-active"),
    path("bots/<int:pk>/ladder/resume/", views.bot_ladder_resume, name="web-bot-ladder-resume"),
    path("tournaments/", views.tournaments, name="web-tournaments"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="web-tournament"),
    path("matches/<int:pk>/", views.match_detail, name="web-match"),
    path("signup/", views.signup, name="web-signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="web/login.html"),
        name="web-login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="web-logout"),
    path("my/bots/", views.my_bots, name="web-my-bots"),
    path("upload/", views.upload, name="web-upload"),
]
