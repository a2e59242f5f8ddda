"""Model instances from written-out SQL (arena/services/rows.py) equal the ORM's."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from arena.models import Match
from arena.services import rows

pytestmark = pytest.mark.django_db

NAMES = rows.columns(Match, ["id", "game", "options", "limits", "claim_token", "record", "seed"])


def test_an_instance_from_a_row_has_the_values_the_orm_reads():
    match = Match.objects.create(
        game="moonrollers",
        rules_version="moonrollers@1",
        players=2,
        seed=9,
        options={"variant": "short"},
        claim_token=uuid.uuid4(),
        record={"seed": 9, "actions": [[0, "roll"]]},
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {rows.select_list(NAMES, 'm')} FROM arena_match m WHERE m.id = %s",
            [match.pk],
        )
        row = cursor.fetchone()
    built = rows.instance(Match, NAMES, row)
    read = Match.objects.only(*NAMES).get(pk=match.pk)
    assert [getattr(built, name) for name in NAMES] == [getattr(read, name) for name in NAMES]
    assert built.options == {"variant": "short"} and isinstance(built.claim_token, uuid.UUID)
    assert built.get_deferred_fields() == read.get_deferred_fields()
    # Twice: the second comes from the cached converters.
    assert rows.instance(Match, NAMES, row).record == {"seed": 9, "actions": [[0, "roll"]]}


def test_a_row_of_the_wrong_width_is_refused():
    with pytest.raises(ValueError, match="6 values for 7 columns"):
        rows.instance(Match, NAMES, [1, "moonrollers", {}, {}, None, None])
