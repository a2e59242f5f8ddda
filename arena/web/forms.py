"""The author pages' forms: what a browser sends, shaped for the services' calls.

The forms check only the shape of the input (a field present, a number a number); every rule
of the arena (names, file checks, quotas, who may challenge whom) is the services', whose
domain errors the views put back on the form next to the field they name.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import OuterRef, Subquery

import engine
from arena.models import Bot, BotVersion
from arena.services.bots import Upload
from arena.services.tokens import NAME_MAX

PASTED_FILENAME = "bot.py"
# Bots offered as baselines in the challenge form besides the bot's own versions.
BASELINE_BOTS = 200


class UploadForm(forms.Form):
    """A bot's code: a file, or Python pasted in the text area (exactly one of the two)."""

    file = forms.FileField(
        required=False,
        label="File",
        help_text="a bot.py (or a zip with bot.py inside), a .cpp, .rs, .go, .java or .js "
        "source file, or an archive with arena.toml",
    )
    code = forms.CharField(
        required=False,
        strip=False,
        label="Or paste the code",
        help_text="Python defining <code>act(observation, legal_actions)</code> or a class "
        "<code>Bot</code>; it is stored as bot.py",
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "class": "code"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        has_file = bool(data.get("file"))
        has_code = bool((data.get("code") or "").strip())
        if has_file and has_code:
            raise forms.ValidationError("choose a file or paste code, not both")
        if not has_file and not has_code and not self.errors:
            raise forms.ValidationError("choose a file or paste the bot's code")
        return data

    def field_for(self, field: str | None) -> str | None:
        """Where a service's error about the file goes: beside the code when it was pasted."""
        if field == "file" and not self.cleaned_data.get("file"):
            return "code"
        return field if field in self.fields else None

    def upload(self) -> Upload:
        file = self.cleaned_data.get("file")
        if file:
            return Upload(file.name or PASTED_FILENAME, file.read())
        return Upload(PASTED_FILENAME, self.cleaned_data["code"].encode("utf-8"))


class NewBotForm(UploadForm):
    name = forms.CharField(max_length=64, help_text="letters, digits, '_', '.' or '-'")
    game = forms.ChoiceField(choices=[])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [
            (name, engine.get_game(name).title or name) for name in engine.game_names()
        ]
        self.order_fields(["name", "game", "file", "code"])


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=NAME_MAX, help_text="what it is for, e.g. laptop or CI: you can revoke it alone"
    )


class ChallengeForm(forms.Form):
    """Version against version, two seats (a cooperative game: a team of each, of the size
    asked): the API takes the rarer settings (players, opponents, options, limits)."""

    candidate = forms.TypedChoiceField(coerce=int, help_text="a ready version of this bot")
    baseline = forms.TypedChoiceField(
        coerce=int, help_text="another version of this bot, or another bot's latest ready one"
    )
    elo0 = forms.FloatField(initial=0.0, label="Elo 0", help_text="not better than this…")
    elo1 = forms.FloatField(initial=5.0, label="Elo 1", help_text="…or better by this")
    max_games = forms.IntegerField(
        initial=2000, label="Most games", help_text="an even number: the test stops here"
    )

    def __init__(self, bot: Bot, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        own = list(
            bot.versions.filter(validation=BotVersion.Validation.READY)
            .order_by("-number")
            .values_list("pk", "number")
        )
        self.fields["candidate"].choices = [(pk, f"{bot.name} v{n}") for pk, n in own]
        self.fields["baseline"].choices = [
            ("This bot", [(pk, f"{bot.name} v{n}") for pk, n in own]),
            ("Other bots (latest ready version)", _other_bots(bot)),
        ]
        if len(own) > 1:
            self.fields["baseline"].initial = own[1][0]
        spec = engine.get_game(bot.game)
        if spec.cooperative:
            self.fields["players"] = forms.IntegerField(
                initial=max(spec.min_players, min(3, spec.max_players)),
                min_value=spec.min_players,
                max_value=spec.max_players,
                label="Team size",
                help_text="seats of each table: the candidate's team, then the baseline's",
            )

    def has_candidates(self) -> bool:
        return bool(self.fields["candidate"].choices)


def _other_bots(bot: Bot) -> list[tuple[int, str]]:
    ready = BotVersion.objects.filter(
        bot=OuterRef("pk"), validation=BotVersion.Validation.READY
    ).order_by("-number")
    rows = (
        Bot.objects.filter(game=bot.game, is_active=True)
        .exclude(pk=bot.pk)
        .annotate(
            ready_id=Subquery(ready.values("pk")[:1]),
            ready_number=Subquery(ready.values("number")[:1]),
        )
        .filter(ready_id__isnull=False)
        .order_by("name")
        .values_list("ready_id", "name", "ready_number")[:BASELINE_BOTS]
    )
    return [(pk, f"{name} v{number}") for pk, name, number in rows]
