"""Drop the single-column indexes that a composite index leading with the column covers.

Each status change of a match writes a new entry in every index of arena_match (the
status is indexed, so the update is never HOT); ten such copies on the four busiest
tables cost the database ~0.1 ms of CPU a match (issue 20). Only the indexes go: the
foreign keys stay as they are. On PostgreSQL they go CONCURRENTLY, so a live arena's
workers are not locked out of the tables meanwhile (hence a non-atomic migration).
"""

import django.db.models.deletion
from django.db import migrations, models

# Django's own names for them (the same on every installation: a hash of table and
# column), their columns, and what covers each.
COVERED_INDEXES = [
    ("arena_match_game_ff33e07a", "arena_match", '"game"'),  # match_game_id (game, id)
    ("arena_match_game_ff33e07a_like", "arena_match", '"game" varchar_pattern_ops'),
    ("arena_match_purpose_effffaf0", "arena_match", '"purpose"'),  # match_purpose_status
    ("arena_match_purpose_effffaf0_like", "arena_match", '"purpose" varchar_pattern_ops'),
    # match_tournament_status, match_tournament_id
    ("arena_match_tournament_id_3ba295b2", "arena_match", '"tournament_id"'),
    # match_unique_set_index (match_set, set_index)
    ("arena_match_match_set_id_81b0b2cd", "arena_match", '"match_set_id"'),
    # attempt_match_ended (match, ended_at)
    ("arena_matchattempt_match_id_db6636c2", "arena_matchattempt", '"match_id"'),
    ("arena_matchseat_bot_id_b4dbeb47", "arena_matchseat", '"bot_id"'),  # matchseat_bot_match
    ("arena_matchseat_match_id_628a934f", "arena_matchseat", '"match_id"'),  # unique seat
    ("arena_rating_bot_id_b16bf029", "arena_rating", '"bot_id"'),  # rating_unique_bot_game
]


def _concurrently(schema_editor) -> str:
    return " CONCURRENTLY" if schema_editor.connection.vendor == "postgresql" else ""


def drop_covered_indexes(apps, schema_editor):
    for name, _, _ in COVERED_INDEXES:
        schema_editor.execute(f'DROP INDEX{_concurrently(schema_editor)} IF EXISTS "{name}"')


def create_covered_indexes(apps, schema_editor):
    for name, table, columns in COVERED_INDEXES:
        if "varchar_pattern_ops" in columns and schema_editor.connection.vendor != "postgresql":
            continue  # Django makes these on PostgreSQL only
        schema_editor.execute(
            f'CREATE INDEX{_concurrently(schema_editor)} IF NOT EXISTS "{name}"'
            f' ON "{table}" ({columns})'
        )


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("arena", "0009_match_attempts_leases"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="match",
                    name="game",
                    field=models.CharField(max_length=64),
                ),
                migrations.AlterField(
                    model_name="match",
                    name="match_set",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="matches",
                        to="arena.matchset",
                    ),
                ),
                migrations.AlterField(
                    model_name="match",
                    name="purpose",
                    field=models.CharField(
                        choices=[
                            ("tournament", "Tournament"),
                            ("ladder", "Ladder"),
                            ("challenge", "Challenge"),
                            ("validation", "Validation"),
                        ],
                        default="tournament",
                        max_length=16,
                    ),
                ),
                migrations.AlterField(
                    model_name="match",
                    name="tournament",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="matches",
                        to="arena.tournament",
                    ),
                ),
                migrations.AlterField(
                    model_name="matchattempt",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="attempt_log",
                        to="arena.match",
                    ),
                ),
                migrations.AlterField(
                    model_name="matchseat",
                    name="bot",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to="arena.bot",
                    ),
                ),
                migrations.AlterField(
                    model_name="matchseat",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="arena.match",
                    ),
                ),
                migrations.AlterField(
                    model_name="rating",
                    name="bot",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to="arena.bot",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunPython(drop_covered_indexes, create_covered_indexes),
            ],
        ),
    ]
