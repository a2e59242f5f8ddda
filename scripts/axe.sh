#!/usr/bin/env bash
# axe-core, which the browser tests inject into every page (tests/arena/web/axe.py), from npm
# into var/node/ (gitignored). Without it those tests fail: they never skip.
set -euo pipefail
cd "$(dirname "$0")/.."
AXE_VERSION=4.14.1  # the version tests/arena/web/axe.py names
if [ -f var/node/node_modules/axe-core/axe.min.js ] \
    && grep -q "\"version\": \"$AXE_VERSION\"" var/node/node_modules/axe-core/package.json; then
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing npm"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
    else
        echo "warning: npm is missing; the accessibility tests will fail until axe-core is in var/node/" >&2
        exit 0
    fi
fi
echo "== installing axe-core $AXE_VERSION into var/node/"
mkdir -p var/node
npm install --prefix var/node --no-audit --no-fund --no-save --silent "axe-core@$AXE_VERSION"
