"""schemathesis against a live server with every check, in every phase (examples, coverage,
fuzzing, stateful), as an anonymous viewer, a bot author and an organiser: no failure.

The settings it runs with are in schemathesis/schemathesis.toml (why 400 is an acceptable
answer to some schema-valid requests). Each run is seeded, so a failure reproduces.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.authtoken.models import Token

CLI = Path(sys.executable).with_name("schemathesis")
CONFIG = Path(__file__).with_name("schemathesis") / "schemathesis.toml"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def token_for(name: str, organiser: bool = False) -> str:
    user = User.objects.create_user(name, password="fuzz-pass-123")
    if organiser:
        user.groups.add(Group.objects.get_or_create(name="organisers")[0])
    return Token.objects.create(user=user).key


@pytest.mark.parametrize("persona", ["anonymous", "author", "organiser"])
def test_schemathesis_finds_no_failure(live_server, persona, make_bot):
    headers: list[str] = []
    if persona != "anonymous":
        headers = ["-H", f"Authorization: Token {token_for(persona, persona == 'organiser')}"]
    # Something to read and to enter in tournaments.
    owner = User.objects.create_user("fuzz-owner")
    for i in range(3):
        make_bot(owner, f"fuzz{i}")
    run = subprocess.run(
        [
            str(CLI),
            "--config-file",
            str(CONFIG),
            "run",
            f"{live_server.url}/api/schema/?format=json",
            "--checks",
            "all",
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--max-examples",
            "5",
            "--seed",
            "1",
            "--no-color",
            *headers,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    summary = run.stdout[run.stdout.find("FAILURES") - 40 :] if run.returncode else ""
    assert run.returncode == 0, summary or run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
