"""A bot version counts the smoke matches started for it, so that its validation ends.

With a database default, so rows written by code from before the column (a rolling
deploy) count from 0; on PostgreSQL a constant default adds the column without a rewrite.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0011_partial_match_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="botversion",
            name="validation_attempts",
            field=models.PositiveSmallIntegerField(db_default=0, default=0),
        ),
    ]
