"""Multi-model workflows: uploads, tournaments, leaderboards, results."""
