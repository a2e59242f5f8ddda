# Moon Arena. `make run` starts the service on embedded defaults (SQLite, a
# filesystem broker); `make test` runs the whole suite on PostgreSQL and Redis.
VENV ?= .venv
PYTHON ?= python3

.PHONY: install run test lint format bench clean

$(VENV)/.installed: pyproject.toml scripts/bootstrap.sh
	PYTHON=$(PYTHON) VENV=$(VENV) bash scripts/bootstrap.sh
	touch $@

install: $(VENV)/.installed

run: install
	VENV=$(VENV) bash scripts/run.sh

test: install
	VENV=$(VENV) bash scripts/test.sh

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

clean:
	rm -rf $(VENV) var build *.egg-info
