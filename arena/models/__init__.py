"""The arena's models: bots and their versions, tournaments, matches and ratings."""

from arena.models.bots import Bot, BotVersion
from arena.models.matches import Match, MatchSeat
from arena.models.ratings import GameRating, Leaderboard, Rating, RatingChange
from arena.models.tournaments import Tournament

__all__ = [
    "Bot",
    "BotVersion",
    "GameRating",
    "Leaderboard",
    "Match",
    "MatchSeat",
    "Rating",
    "RatingChange",
    "Tournament",
]
