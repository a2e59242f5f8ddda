"""Server-rendered pages for people: leaderboards, bots, tournaments, matches and replays."""
