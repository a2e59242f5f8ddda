"""HTTP glue: who may call what, which rows a request sees, and which service does the work.

Workflows and checks live in arena/services/; domain errors they raise become 4xx answers in
arena/api/errors.py. One module per resource; every view is importable from here.
"""

from arena.api.views.accounts import *  # noqa: F403
from arena.api.views.bots import *  # noqa: F403
from arena.api.views.challenges import *  # noqa: F403
from arena.api.views.common import *  # noqa: F403
from arena.api.views.ladders import *  # noqa: F403
from arena.api.views.leaderboards import *  # noqa: F403
from arena.api.views.matches import *  # noqa: F403
from arena.api.views.tournaments import *  # noqa: F403
