"""The bot SDK and the built-in reference bots."""
