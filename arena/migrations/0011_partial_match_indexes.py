"""The indexes on arena_match's mostly-empty columns hold only the matches that have one.

A ladder's or a challenge's match has no tournament or round, and only a challenge's has a
challenge; the four indexes on those columns took an entry for each NULL at every one of a
match's two (non-HOT) status changes (issue 20). The partial indexes are built first, then
the old ones dropped, so a lookup by tournament always has an index; on PostgreSQL both
CONCURRENTLY, so a live arena keeps writing meanwhile (hence a non-atomic migration).
"""

import django.db.models.deletion
from django.db import migrations, models

NEW_INDEXES = [
    models.Index(
        condition=models.Q(tournament__isnull=False),
        fields=["tournament", "status"],
        name="match_in_tournament_status",
    ),
    models.Index(
        condition=models.Q(tournament__isnull=False),
        fields=["tournament", "id"],
        name="match_in_tournament_id",
    ),
    models.Index(condition=models.Q(round__isnull=False), fields=["round"], name="match_round"),
    models.Index(
        condition=models.Q(challenge__isnull=False), fields=["challenge"], name="match_challenge"
    ),
]
OLD_INDEXES = [
    models.Index(fields=["tournament", "status"], name="match_tournament_status"),
    models.Index(fields=["tournament", "id"], name="match_tournament_id"),
]
# The foreign keys' own indexes, by Django's names for them (a hash of table and column).
OLD_FK_INDEXES = [
    ("arena_match_round_id_4f2baa81", '"round_id"'),
    ("arena_match_challenge_id_c63e73d3", '"challenge_id"'),
]


def _concurrently(schema_editor) -> dict:
    return {"concurrently": True} if schema_editor.connection.vendor == "postgresql" else {}


def use_partial_indexes(apps, schema_editor):
    match = apps.get_model("arena", "Match")
    for index in NEW_INDEXES:
        schema_editor.add_index(match, index, **_concurrently(schema_editor))
    for index in OLD_INDEXES:
        schema_editor.remove_index(match, index, **_concurrently(schema_editor))
    how = " CONCURRENTLY" if _concurrently(schema_editor) else ""
    for name, _ in OLD_FK_INDEXES:
        schema_editor.execute(f'DROP INDEX{how} IF EXISTS "{name}"')


def use_full_indexes(apps, schema_editor):
    match = apps.get_model("arena", "Match")
    how = " CONCURRENTLY" if _concurrently(schema_editor) else ""
    for name, column in OLD_FK_INDEXES:
        schema_editor.execute(
            f'CREATE INDEX{how} IF NOT EXISTS "{name}" ON "arena_match" ({column})'
        )
    for index in OLD_INDEXES:
        schema_editor.add_index(match, index, **_concurrently(schema_editor))
    for index in NEW_INDEXES:
        schema_editor.remove_index(match, index, **_concurrently(schema_editor))


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("arena", "0010_drop_covered_indexes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveIndex(model_name="match", name="match_tournament_status"),
                migrations.RemoveIndex(model_name="match", name="match_tournament_id"),
                migrations.AlterField(
                    model_name="match",
                    name="challenge",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="matches",
                        to="arena.challenge",
                    ),
                ),
                migrations.AlterField(
                    model_name="match",
                    name="round",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="matches",
                        to="arena.tournamentround",
                    ),
                ),
                *(migrations.AddIndex(model_name="match", index=index) for index in NEW_INDEXES),
            ],
            database_operations=[
                migrations.RunPython(use_partial_indexes, use_full_indexes),
            ],
        ),
    ]
