"""Text from bots made safe to store: the one door it passes on its way to the database.

A bot's stderr, its forfeit reasons (its own "error" lines, the message of an exception
raised in its `act`, a forged match key quoted back to it), the reason its smoke match
rejected an upload and an upload's file name are its author's text, and may hold anything.
Two things in such text the database refuses: the NUL character (PostgreSQL's text and
jsonb cannot hold it: psycopg raises DataError) and an unpaired surrogate, such as the lone
"\\ud800" a JSON reply may spell (it has no UTF-8 form: neither PostgreSQL nor SQLite gets
it). Either made a whole result unwritable. `clean_text` replaces both with U+FFFD (a
surrogate pair becomes the character it spells) and caps the length; `clean_json` does the
same for every string of a JSON value. Their callers: arena/services/results.py, attempts.py,
validation.py and bots.py, and the models' own state changes.
"""

from __future__ import annotations

from typing import Any

REPLACEMENT = "\ufffd"
# Bounds on what one bot's stderr and one reason (a forfeit, a failure, an attempt's
# detail, a rejected upload) may put in a row.
STDERR_CHARS = 64 * 1024
REASON_CHARS = 4000


def clean_text(text: str, limit: int | None = REASON_CHARS) -> str:
    """`text` without NUL or unpaired surrogates (each becomes U+FFFD), at most `limit`
    characters (None: no cap). Clean text comes back as it is, at the cost of a scan."""
    if limit is not None and len(text) > limit:
        text = text[:limit]
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # Only surrogates stop UTF-8: through UTF-16 a pair becomes its character
            # and a lone one U+FFFD.
            text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if "\x00" in text:
        text = text.replace("\x00", REPLACEMENT)
    return text


def clean_json(value: Any) -> Any:
    """A JSON value with every string and key through `clean_text` (uncapped)."""
    if isinstance(value, str):
        return clean_text(value, None)
    if isinstance(value, dict):
        return {
            clean_text(key, None) if isinstance(key, str) else key: clean_json(item)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [clean_json(item) for item in value]
    return value
