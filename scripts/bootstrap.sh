#!/usr/bin/env bash
# Creates the virtual environment and installs the project with everything it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PYTHON=${PYTHON:-python3}

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Moon Arena needs Python 3.11 or newer; $PYTHON is $("$PYTHON" --version 2>&1)" >&2
    exit 1
fi

# The sandbox needs bubblewrap, and util-linux's prlimit and setpriv (essential on
# Debian, absent from some minimal images); install them when we can (root on Debian).
if ! command -v bwrap >/dev/null 2>&1 || ! [ -x /usr/bin/prlimit ] || ! [ -x /usr/bin/setpriv ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing bubblewrap and util-linux"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap util-linux >/dev/null
    else
        echo "warning: bubblewrap (bwrap), prlimit or setpriv is missing; workers will refuse to start until they are installed" >&2
    fi
fi

# The deployment tests verify deploy/systemd with systemd-analyze, and the cluster tests
# build worker hosts with ip (network namespaces) and unshare: install them when missing.
if ! command -v systemd-analyze >/dev/null 2>&1 || ! command -v ip >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing systemd (systemd-analyze) and iproute2"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd iproute2 >/dev/null
    else
        echo "warning: systemd-analyze or ip is missing; the deployment and cluster tests will fail" >&2
    fi
fi

# `make run` starts a private redis-server and PostgreSQL of its own (deploy/embedded.py).
if ! command -v redis-server >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing redis-server and postgresql"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server postgresql >/dev/null
    else
        echo "warning: redis-server or PostgreSQL is missing; make run needs both (or DATABASE_URL and CELERY_BROKER_URL set)" >&2
    fi
fi

# Bots in other languages build and run with Debian's compilers and runtimes
# (arena/languages.py): g++, rustc, Go, OpenJDK and Node.js, on every worker host.
missing_runtimes=()
command -v g++ >/dev/null 2>&1 || missing_runtimes+=(g++)
[ -x /usr/bin/rustc ] || missing_runtimes+=(rustc)
[ -x /usr/bin/go ] || missing_runtimes+=(golang-go)
{ command -v javac >/dev/null 2>&1 && command -v java >/dev/null 2>&1; } || missing_runtimes+=(default-jdk-headless)
[ -x /usr/bin/node ] || missing_runtimes+=(nodejs)
if [ ${#missing_runtimes[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing the bots' compilers and runtimes: ${missing_runtimes[*]}"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing_runtimes[@]}" >/dev/null
    else
        echo "warning: missing ${missing_runtimes[*]}: bots in those languages will not build or run here" >&2
    fi
fi

# The browser tests check every page with axe-core (an npm package, into var/node/).
bash scripts/axe.sh

[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip

# elo 0.1.1 only builds with an old setuptools. The constraint must apply to its
# build alone: left in place it would clash with this project's modern backend.
if ! "$VENV/bin/python" -c 'import elo' 2>/dev/null; then
    constraint=$(mktemp)
    echo 'setuptools<58' > "$constraint"
    # pip 26.3 reads build constraints from PIP_BUILD_CONSTRAINT; older pips from PIP_CONSTRAINT.
    PIP_CONSTRAINT="$constraint" PIP_BUILD_CONSTRAINT="$constraint" \
        "$VENV/bin/python" -m pip install -q "elo==0.1.1"
    rm -f "$constraint"
fi

"$VENV/bin/python" -m pip install -q -e '.[service,dev]'
