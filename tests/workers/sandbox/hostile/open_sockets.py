"""Connects to PostgreSQL and Redis on 127.0.0.1 (and their Unix sockets): nothing outside may answer."""

import socket
import sys


def act(observation, legal_actions):
    for path in (
        "/var/run/postgresql/.s.PGSQL.5432",
        "/var/run/redis/redis.sock",
        "/tmp/.s.PGSQL.5432",
    ):
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            client.connect(path)
            print(f"LEAK: connected to {path}", file=sys.stderr)
        except OSError as exc:
            print(f"BLOCKED: {path}: {exc!r}", file=sys.stderr)
        finally:
            client.close()
    for port in (5432, 6379):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                print(f"LEAK: port {port} answered {conn.recv(64)!r}", file=sys.stderr)
        except OSError as exc:
            print(f"BLOCKED: port {port}: {exc!r}", file=sys.stderr)
    # Any failure above is what we expect; now fail loudly so the match records it.
    socket.create_connection(("127.0.0.1", 6379), timeout=0.5)
    return legal_actions[0]
