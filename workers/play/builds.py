"""Building an uploaded version on a worker, for its validation (arena/services/validation.py).

The upload is unpacked and checked again here as the web process checked it
(arena/services/bots.py), then built in the build sandbox (workers/sandbox/builds.py),
always: like the smoke match, a build never runs outside the sandbox on a worker.
"""

from __future__ import annotations

from arena.errors import InvalidUpload
from arena.services.bots import Upload, unpack_upload
from workers.play.smoke import sandbox_launcher
from workers.sandbox.builds import Build, build


def build_upload(source: bytes, filename: str) -> Build:
    """Build a version's upload: its artefact, or the reason (compiler messages) it failed."""
    try:
        manifest, files = unpack_upload(Upload(filename=filename, data=source))
    except InvalidUpload as exc:
        return Build(None, exc.message)
    return build(sandbox_launcher(), files, manifest)
