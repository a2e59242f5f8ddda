"""A client of a Moon Arena service's REST API, for the `arena` command (bots/sdk/commands.py).

Standard library only (urllib), so the SDK installs without the service's packages. Every
failure a user can meet (no server there, a refused token, a bad request, a rejected file)
becomes a `ClientError` whose message is one line meant to be printed as it is.

Where the token lives: `ARENA_TOKEN` (with `ARENA_URL`) when set, else the file that
`arena login` writes, `$ARENA_CONFIG_DIR/credentials.json` (default
`$XDG_CONFIG_HOME/moon-arena/`, i.e. `~/.config/moon-arena/`), readable by its owner only.
"""

from __future__ import annotations

import json
import os
import stat
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The version of the client and of the JSON-lines protocol its runner speaks. The service
# says which protocol it speaks and the oldest SDK it accepts (GET /api/version/).
SDK_VERSION = "0.2.0"
PROTOCOL_VERSION = 1
TIMEOUT_SECONDS = 30.0


class ClientError(Exception):
    """One line for the user; `exit_code` 1 for the arena's answers, 2 for usage mistakes."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def config_dir() -> Path:
    explicit = os.environ.get("ARENA_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "moon-arena"


def cache_dir() -> Path:
    """Where downloaded bots are kept (`$XDG_CACHE_HOME/moon-arena`, `~/.cache/moon-arena`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "moon-arena"


@dataclass(frozen=True)
class Credentials:
    url: str
    token: str
    username: str = ""

    @classmethod
    def load(cls) -> Credentials:
        """The environment's credentials, else the saved ones; a clear error without either."""
        token = os.environ.get("ARENA_TOKEN")
        if token:
            url = os.environ.get("ARENA_URL")
            if not url:
                raise ClientError("ARENA_TOKEN is set but ARENA_URL is not", 2)
            return cls(normal_url(url), token)
        path = config_dir() / "credentials.json"
        try:
            saved = json.loads(path.read_text())
            return cls(
                normal_url(saved["url"]), str(saved["token"]), str(saved.get("username", ""))
            )
        except FileNotFoundError:
            raise ClientError("not logged in: run `arena login URL` first", 2) from None
        except (OSError, ValueError, KeyError, TypeError):
            raise ClientError(f"{path} is unreadable: run `arena login URL` again", 2) from None

    def save(self) -> Path:
        """Written readable by the owner only, created so from the start (no window)."""
        folder = config_dir()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = folder / "credentials.json"
        text = json.dumps({"url": self.url, "token": self.token, "username": self.username})
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(text + "\n")
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)  # an older file may have had wider bits
        return path

    @staticmethod
    def forget() -> bool:
        path = config_dir() / "credentials.json"
        if path.exists():
            path.unlink()
            return True
        return False


def normal_url(url: str) -> str:
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ClientError(f"not a web address: {url!r}", 2)
    return url


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _describe_errors(body: Any) -> str:
    """DRF's error answers ({"field": ["why"]}, {"detail": "why"}) as one line."""
    if isinstance(body, dict):
        if isinstance(body.get("detail"), str):
            return str(body["detail"])  # the arena's own summary of what follows
        parts = []
        for key, value in body.items():
            if key == "code":
                continue
            text = "; ".join(str(v) for v in value) if isinstance(value, list) else str(value)
            parts.append(text if key in ("detail", "non_field_errors") else f"{key}: {text}")
        return "; ".join(parts)
    if isinstance(body, list):
        return "; ".join(str(item) for item in body)
    return str(body)


def _multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    chunks: list[bytes] = []
    for name, value in fields.items():
        chunks.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + value.encode()
            + b"\r\n"
        )
    for name, (filename, content) in files.items():
        safe = filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
        chunks.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{safe}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + content
            + b"\r\n"
        )
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


class ArenaClient:
    """The service's API, one method per thing the `arena` command asks of it."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.url = normal_url(url)
        self.token = token

    @classmethod
    def from_credentials(cls) -> ArenaClient:
        credentials = Credentials.load()
        return cls(credentials.url, credentials.token)

    # ----- the transport ---------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
        files: dict[str, tuple[str, bytes]] | None = None,
        raw: bool = False,
    ) -> Any:
        url = self.url + path
        if params:
            query = {k: v for k, v in params.items() if v is not None}
            url += "?" + urllib.parse.urlencode(query)
        headers = {"Accept": "application/json", "User-Agent": f"moon-arena-sdk/{SDK_VERSION}"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        body = None
        if files is not None:
            body, headers["Content-Type"] = _multipart(
                {k: str(v) for k, v in (data or {}).items()}, files
            )
        elif data is not None:
            body = json.dumps(data).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as reply:
                content = reply.read()
        except urllib.error.HTTPError as exc:
            raise self._http_error(exc) from None
        except (TimeoutError, urllib.error.URLError, ConnectionError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ClientError(f"cannot reach the arena at {self.url}: {reason}") from None
        if raw:
            return content
        if not content:
            return None
        try:
            return json.loads(content)
        except ValueError:
            raise ClientError(f"{self.url} did not answer like a Moon Arena (not JSON)") from None

    def _http_error(self, exc: urllib.error.HTTPError) -> ClientError:
        try:
            detail = _describe_errors(json.loads(exc.read() or b"null"))
        except ValueError:
            detail = ""
        if exc.code == 401:
            return ClientError("the arena refused the token: run `arena login URL` again")
        if exc.code == 403:
            return ClientError(f"not allowed: {_one_line(detail) or 'forbidden'}")
        if exc.code == 404:
            return ClientError(_one_line(detail) if detail else "not found")
        if exc.code >= 500:
            return ClientError(f"the arena failed ({exc.code}): {_one_line(detail) or 'try later'}")
        return ClientError(_one_line(detail) or f"the arena answered {exc.code}")

    def _object(self, method: str, path: str, **options: Any) -> dict[str, Any]:
        answer = self.request(method, path, **options)
        if not isinstance(answer, dict):
            raise ClientError(f"{self.url} answered {path} with something else than an object")
        return answer

    def _list(self, method: str, path: str, **options: Any) -> list[Any]:
        answer = self.request(method, path, **options)
        if not isinstance(answer, list):
            raise ClientError(f"{self.url} answered {path} with something else than a list")
        return answer

    def _all(self, path: str, params: dict[str, Any] | None = None, limit: int = 1000) -> list[Any]:
        """Every item of a paginated list (page or cursor), up to `limit`."""
        items: list[Any] = []
        page = self.request("GET", path, params=params)
        while True:
            if isinstance(page, list):
                return (items + page)[:limit]
            items.extend(page.get("results", []))
            following = page.get("next")
            if not following or len(items) >= limit:
                return items[:limit]
            page = self.request("GET", following.removeprefix(self.url))

    # ----- accounts ----------------------------------------------------------------------

    def check_version(self) -> dict[str, Any]:
        """The service's versions; an SDK too old for it is told how to upgrade."""
        info = self.request("GET", "/api/version/")
        if not isinstance(info, dict) or "protocol" not in info:
            raise ClientError(f"{self.url} did not answer like a Moon Arena")
        oldest = str(info.get("oldest_sdk", "0"))
        if _version_tuple(SDK_VERSION) < _version_tuple(oldest) or info["protocol"] != (
            PROTOCOL_VERSION
        ):
            raise ClientError(
                f"this SDK ({SDK_VERSION}, protocol {PROTOCOL_VERSION}) is too old for the arena "
                f"(protocol {info['protocol']}, SDK {oldest} or newer): "
                "pip install --upgrade moon-arena-sdk"
            )
        return info

    def login(self, username: str, password: str) -> str:
        self.check_version()
        try:
            answer = self.request(
                "POST", "/api/token/", data={"username": username, "password": password}
            )
        except ClientError as exc:
            raise ClientError(f"login refused: {exc}") from None
        self.token = str(answer["token"])
        return self.token

    def me(self) -> dict[str, Any]:
        return self._object("GET", "/api/users/me/")

    def games(self) -> list[dict[str, Any]]:
        return self._all("/api/games/")

    def check_game(self, game: str) -> None:
        names = [g["name"] for g in self.games()]
        if game not in names:
            raise ClientError(f"unknown game {game!r}: choose one of {', '.join(names)}", 2)

    # ----- bots ------------------------------------------------------------------------

    def my_bots(self) -> list[dict[str, Any]]:
        return self._all("/api/bots/", params={"mine": "true"})

    def find_bot(self, name_or_id: str) -> dict[str, Any]:
        """One of the user's bots by name, or any bot by id."""
        if name_or_id.isdigit():
            return self._object("GET", f"/api/bots/{int(name_or_id)}/")
        found = [bot for bot in self.my_bots() if bot["name"] == name_or_id]
        if not found:
            raise ClientError(f"you have no bot named {name_or_id!r}", 2)
        return found[0]

    def create_bot(self, name: str, game: str, filename: str, content: bytes) -> dict[str, Any]:
        return self._object(
            "POST",
            "/api/bots/",
            data={"name": name, "game": game},
            files={"file": (filename, content)},
        )

    def add_version(self, bot_id: int, filename: str, content: bytes) -> dict[str, Any]:
        return self._object(
            "POST", f"/api/bots/{bot_id}/versions/", files={"file": (filename, content)}
        )

    def versions(self, bot_id: int) -> list[dict[str, Any]]:
        return self._list("GET", f"/api/bots/{bot_id}/versions/")

    def leaderboard_row(self, game: str, bot_id: int) -> dict[str, Any] | None:
        for row in self._all(f"/api/leaderboards/{game}/", limit=5000):
            if isinstance(row, dict) and row.get("bot_id") == bot_id:
                return row
        return None

    def source(self, bot_id: int, number: int | None = None) -> bytes:
        """The code of one of the user's own versions (the latest when `number` is None)."""
        params = {"version": number} if number is not None else None
        content = self.request("GET", f"/api/bots/{bot_id}/source/", params=params, raw=True)
        return bytes(content)

    # ----- matches ---------------------------------------------------------------------

    def matches(self, bot_id: int | None = None, last: int = 20) -> list[dict[str, Any]]:
        params: dict[str, Any] = {"page_size": min(max(last, 1), 100)}
        if bot_id is not None:
            params["bot"] = bot_id
        return self._all("/api/matches/", params=params, limit=last)

    def match(self, match_id: int) -> dict[str, Any]:
        return self._object("GET", f"/api/matches/{match_id}/")

    def replay(self, match_id: int) -> dict[str, Any]:
        return self._object("GET", f"/api/matches/{match_id}/replay/")

    # ----- challenges and tournaments --------------------------------------------------

    def create_challenge(self, data: dict[str, Any]) -> dict[str, Any]:
        return self._object("POST", "/api/challenges/", data=data)

    def challenge(self, challenge_id: int) -> dict[str, Any]:
        return self._object("GET", f"/api/challenges/{challenge_id}/")

    def create_tournament(self, data: dict[str, Any]) -> dict[str, Any]:
        return self._object("POST", "/api/tournaments/", data=data)

    def tournament(self, tournament_id: int) -> dict[str, Any]:
        return self._object("GET", f"/api/tournaments/{tournament_id}/")


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)
