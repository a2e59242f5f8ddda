"""`{% live_control kind subject %}`: the live-update line of a page that updates by itself.

It renders the stamp the page was drawn with and where to poll for the next one
(arena/web/live_views.py), and loads arena/static/arena/live.js, which swaps the page's
`data-live-region` elements for fresh ones when the stamp moves.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from arena.models import Tournament
from arena.services import live

register = template.Library()

# How often a live page asks for its stamp, in milliseconds.
POLL_MS = 5000


@register.inclusion_tag("web/_live.html")
def live_control(kind: str, subject: Any) -> dict[str, Any]:
    if kind == "game":
        url = reverse("web-live-leaderboard", args=[subject])
        stamp, running = live.leaderboard_stamp(subject), True
    elif kind == "tournament" and isinstance(subject, Tournament):
        url = reverse("web-live-tournament", args=[subject.pk])
        stamp, running = live.tournament_stamp(subject), live.is_live(subject)
    else:
        raise template.TemplateSyntaxError(f"live_control: no live {kind!r} pages")
    return {"url": url, "stamp": stamp, "running": running, "every": POLL_MS}
