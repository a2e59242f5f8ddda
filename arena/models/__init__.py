"""The arena's models: bots and their versions, tournaments, matches, sets, ratings, ladders,
API tokens."""

from arena.models.bots import Bot, BotVersion, BuildArtifact
from arena.models.challenges import Challenge
from arena.models.ladder import Ladder, LadderEntry
from arena.models.matches import Match, MatchAttempt, MatchSeat
from arena.models.ratings import GameRating, Leaderboard, Rating, RatingChange
from arena.models.rounds import TournamentRound
from arena.models.sets import MatchSet
from arena.models.skills import SkillEntry, SkillFit
from arena.models.tokens import ApiToken
from arena.models.tournaments import Tournament, TournamentStanding

__all__ = [
    "ApiToken",
    "Bot",
    "BotVersion",
    "BuildArtifact",
    "Challenge",
    "GameRating",
    "Ladder",
    "LadderEntry",
    "Leaderboard",
    "Match",
    "MatchAttempt",
    "MatchSeat",
    "MatchSet",
    "Rating",
    "RatingChange",
    "SkillEntry",
    "SkillFit",
    "Tournament",
    "TournamentRound",
    "TournamentStanding",
]
