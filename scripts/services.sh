#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer on 127.0.0.1, starting (and, as root on
# Debian, installing) them when they do not. Prints the URLs to use.
set -euo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { (exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\r\n' >&3 && head -c 5 <&3 | grep -q PONG) 2>/dev/null; }
as_root() { [ "$(id -u)" = 0 ]; }

install_packages() {
    as_root && command -v apt-get >/dev/null || { echo "cannot install $*: not root on Debian" >&2; return 1; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! pg_up; then
    command -v pg_ctlcluster >/dev/null 2>&1 || install_packages postgresql postgresql-client
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
    pg_up || { echo "PostgreSQL did not start" >&2; exit 1; }
    # A fresh Debian cluster wants a password over TCP: give postgres a known one.
    if as_root; then
        su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >/dev/null 2>&1 || true
    fi
fi

if ! redis_up; then
    command -v redis-server >/dev/null 2>&1 || install_packages redis-server
    mkdir -p /tmp/arena-redis
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
        --dir /tmp/arena-redis --logfile /tmp/arena-redis/redis.log
    for _ in $(seq 1 30); do redis_up && break; sleep 0.5; done
    redis_up || { echo "Redis did not start" >&2; exit 1; }
fi
