# Moon Arena. `make run` starts the service with a private PostgreSQL and Redis under var/;
# `make test` runs the whole suite on PostgreSQL and Redis.
VENV ?= .venv
PYTHON ?= python3

.PHONY: install run test test-all test-faults soak lint format bench bench-new-author sdk docs clean

$(VENV)/.installed: pyproject.toml scripts/bootstrap.sh
	PYTHON=$(PYTHON) VENV=$(VENV) bash scripts/bootstrap.sh
	touch $@

install: $(VENV)/.installed

run: install
	VENV=$(VENV) bash scripts/run.sh

test: install
	VENV=$(VENV) bash scripts/test.sh

# Everything, the slow fault scenarios and the long fuzzing of the referee included.
test-all: install
	PYTEST_MARKERS= VENV=$(VENV) bash scripts/test.sh

# Only the fault scenarios (real workers killed, paused, delivered twice; their own Redis and
# PostgreSQL restarted, 10 s and 120 s down; a full database disk, a full Redis), slow ones too.
test-faults: install
	PYTEST_MARKERS= VENV=$(VENV) bash scripts/test.sh tests/workers/pipeline/test_faults.py \
		tests/workers/pipeline/test_resource_faults.py -s

# The whole stack as `make run` runs it, two hours under load and faults (scripts/soak.py):
# samples, plot and verdict in var/soak/<time>/. SOAK_MINUTES=10 for a shorter one.
soak: install
	$(VENV)/bin/python scripts/soak.py --minutes $${SOAK_MINUTES:-120}

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	for game in $$($(VENV)/bin/arena games --json | $(VENV)/bin/python -c 'import json,sys; print(" ".join(g["name"] for g in json.load(sys.stdin)))'); do \
		$(VENV)/bin/arena bench --game $$game --json; \
	done

# The bot authors' wheel, dist/moon_arena_sdk-<version>-py3-none-any.whl (scripts/build_sdk.py).
sdk: install
	$(VENV)/bin/python scripts/build_sdk.py --out dist

# A new author's scripted run against a real service, timed per step (var/bench/new_author.json).
bench-new-author: install
	PYTEST_MARKERS= VENV=$(VENV) bash scripts/test.sh tests/bots/test_new_author.py -k empty_folder -s

clean:
	rm -rf $(VENV) var build dist *.egg-info

# The guide (docs/, mkdocs.yml), served with live reload on http://127.0.0.1:8001/.
# tests/docs/test_guide.py builds it with --strict as part of make test.
docs: install
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:$${DOCS_PORT:-8001}
