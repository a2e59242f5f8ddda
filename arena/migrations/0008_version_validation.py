"""Bot versions carry their validation state (issue 17: the smoke match leaves the request).

Versions stored before this migration passed the smoke match inside the upload request, so
they become `ready`; new uploads start `pending` until a worker has played their smoke match.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0007_api_indexes_standings"),
    ]

    operations = [
        migrations.AddField(
            model_name="botversion",
            name="validated_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        # Added as ready (every existing row), then the default becomes pending.
        migrations.AddField(
            model_name="botversion",
            name="validation",
            field=models.CharField(
                choices=[("pending", "Pending"), ("ready", "Ready"), ("rejected", "Rejected")],
                default="ready",
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="botversion",
            name="validation",
            field=models.CharField(
                choices=[("pending", "Pending"), ("ready", "Ready"), ("rejected", "Rejected")],
                default="pending",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="botversion",
            name="validation_error",
            field=models.TextField(blank=True, default=""),
        ),
    ]
