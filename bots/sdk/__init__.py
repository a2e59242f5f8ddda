"""The bot SDK: load a bot file and speak the arena's JSON-lines protocol."""

from bots.sdk.runner import BotLoadError, LoadedBot, load_bot

__all__ = ["BotLoadError", "LoadedBot", "load_bot"]
