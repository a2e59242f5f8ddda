"""HTTP shapes of the API: what requests carry in and what responses show. No workflow here.

One module per resource; everything is importable from here (`arena.api.serializers.X`).
"""

from arena.api.serializers.accounts import *  # noqa: F403
from arena.api.serializers.bots import *  # noqa: F403
from arena.api.serializers.challenges import *  # noqa: F403
from arena.api.serializers.common import *  # noqa: F403
from arena.api.serializers.ladders import *  # noqa: F403
from arena.api.serializers.leaderboards import *  # noqa: F403
from arena.api.serializers.matches import *  # noqa: F403
from arena.api.serializers.tournaments import *  # noqa: F403
