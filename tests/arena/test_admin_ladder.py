"""The ladder in the admin: its pages, pausing and resuming, edits checked like the API's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.models import Ladder, LadderEntry
from arena.services import ladder as ladder_service

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    client.force_login(User.objects.create_superuser("root", password="root-pass-1"))
    return client


def test_ladder_pages_render_and_actions_pause_and_resume(staff, make_bot, author_user):
    bot = make_bot(author_user, "a")
    ladder = ladder_service.ladder_for("duel")
    ladder_service.sync_entries("duel")
    entry = LadderEntry.objects.get(bot=bot)
    for url in [
        "/admin/arena/ladder/",
        f"/admin/arena/ladder/{ladder.pk}/change/",
        "/admin/arena/ladderentry/",
        f"/admin/arena/ladderentry/{entry.pk}/change/",
        "/admin/arena/match/?purpose=ladder",
    ]:
        assert staff.get(url).status_code == 200, url
    staff.post("/admin/arena/ladder/", {"action": "pause", "_selected_action": [ladder.pk]})
    assert not Ladder.objects.get(pk=ladder.pk).is_running()
    staff.post("/admin/arena/ladder/", {"action": "resume", "_selected_action": [ladder.pk]})
    assert Ladder.objects.get(pk=ladder.pk).is_running()
    LadderEntry.objects.filter(pk=entry.pk).update(paused_at=entry.entered_at, pause_reason="crash")
    staff.post("/admin/arena/ladderentry/", {"action": "resume", "_selected_action": [entry.pk]})
    assert not LadderEntry.objects.get(pk=entry.pk).is_paused()


def test_an_admin_edit_out_of_range_is_refused_with_the_field(staff):
    ladder = ladder_service.ladder_for("duel")
    url = f"/admin/arena/ladder/{ladder.pk}/change/"
    form = {"status": "running", "table_sizes": "[9]", "target_depth": "0", "newcomer_games": "5"}
    page = staff.post(url, form)
    assert page.status_code == 200  # the form again, with its errors
    errors = page.context["adminform"].form.errors
    assert "table_sizes" in errors and "target_depth" in errors
    ladder.refresh_from_db()
    assert ladder.table_sizes == [] and ladder.target_depth is None
    good = {"status": "paused", "table_sizes": "[2, 4]", "target_depth": "6", "newcomer_games": "3"}
    assert staff.post(url, good).status_code == 302
    ladder.refresh_from_db()
    assert ladder.table_sizes == [2, 4] and ladder.target_depth == 6 and not ladder.is_running()
