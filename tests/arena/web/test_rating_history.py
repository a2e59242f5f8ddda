"""The bot page's chart history, thinned in PostgreSQL, against the whole history read by
the API's service (arena/services/skills.py history): same rows, evenly spread, both ends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.models import Bot, Match, Rating, RatingChange, SkillEntry, SkillFit
from arena.services import skills as skill_service
from arena.services.rating_history import chart_history

pytestmark = pytest.mark.django_db


def bot_with_history(changes: int, fits: int) -> Bot:
    owner = User.objects.create_user("hist")
    bot = Bot.objects.create(owner=owner, name="long-runner", game="moonrollers")
    rating = Rating.objects.create(bot=bot, game="moonrollers")
    matches = Match.objects.bulk_create(
        Match(game="moonrollers", rules_version="x", players=2, seed=i) for i in range(changes)
    )
    start = timezone.now() - timedelta(days=30)
    made = RatingChange.objects.bulk_create(
        RatingChange(rating=rating, match=m, before=1500 + i, after=1501 + i)
        for i, m in enumerate(matches)
    )
    # Pairs share a timestamp (one transaction's changes): the id keeps them in order.
    for i, change in enumerate(made):
        change.created_at = start + timedelta(minutes=i // 2)
    RatingChange.objects.bulk_update(made, ["created_at"])
    for i in range(fits):
        fit = SkillFit.objects.create(game="moonrollers", fitted_at=start + timedelta(hours=i))
        SkillEntry.objects.create(fit=fit, bot=bot, skill=i, skill_low=i - 1, skill_high=i + 1)
    return bot


@pytest.mark.parametrize(("changes", "fits"), [(0, 0), (1, 1), (40, 3), (300, 301), (2345, 999)])
def test_the_chart_keeps_evenly_spread_rows_of_the_whole_history(changes, fits):
    bot = bot_with_history(changes, fits)
    whole = skill_service.history(bot.pk, "moonrollers")
    shown = chart_history(bot.pk, "moonrollers", points=300, latest=30)
    for series, count in (("elo", changes), ("skill", fits)):
        full, thin = whole[series], shown[series]
        assert shown[f"{series}_count"] == count == len(full)
        assert shown[f"{series}_latest"] == full[-30:][::-1]
        if count <= 300:
            assert thin == full
            continue
        assert len(thin) <= 300 and len(thin) >= 299
        assert thin[0] == full[0] and thin[-1] == full[-1]
        positions = [full.index(row) for row in thin]
        assert positions == sorted(positions)
        gaps = [b - a for a, b in zip(positions, positions[1:], strict=False)]
        assert max(gaps) - min(gaps) <= 1, (min(gaps), max(gaps))
