# Ludo. On a fresh machine (Python 3.12+, git, make):
#   make run    virtualenv, install, migrate, demo content, worker + daphne on http://127.0.0.1:8000
#   make test   virtualenv with the test extras, then the whole suite (PYTEST_ARGS="-k healthz -x";
#               COVERAGE=1 runs it under coverage.py: `.venv/bin/python -m coverage report` after)
#   make bench  the slow tests in full (LUDO_SOAK=full; CI runs them reduced), then the benches
# Both are idempotent. PYTHON=/path/to/python3.12 picks the interpreter; otherwise the
# first one that actually runs and is 3.12 or newer, on PATH or in pyenv's versions.

SHELL := /bin/bash
VENV  ?= .venv
BIN   := $(VENV)/bin
HOST  ?= 127.0.0.1
PORT  ?= 8000
PYTEST_ARGS ?=
MAKEMESSAGES_IGNORES := --ignore '.venv/*' --ignore 'var/*' --ignore 'tests/*' --ignore 'bench/*' \
	--ignore 'staticfiles/*' --ignore 'artifacts/*' --ignore 'node_modules/*'

# Prints the path of a working Python >= 3.12, or fails. A pyenv shim such as
# python3.12 exists on PATH even when that version is not selected, and then it
# fails when run: every candidate is run, not just looked up.
define find_python
ok() { "$$1" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }; \
if [ -n "$(PYTHON)" ]; then \
  if ok "$(PYTHON)"; then command -v "$(PYTHON)"; exit 0; fi; \
  echo "error: PYTHON=$(PYTHON) does not run as Python 3.12 or newer (with the venv module)" >&2; exit 1; \
fi; \
for c in python3.13 python3.12 python3.14 python3 python \
         $$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV); do \
  if ok "$$c"; then command -v "$$c"; exit 0; fi; \
done; \
echo "error: no working Python 3.12 or newer found on PATH or in pyenv's versions." >&2; \
echo "Install one (Django 6 needs it), or name it: make PYTHON=/path/to/python3.12 $(MAKECMDGOALS)" >&2; \
exit 1
endef

.PHONY: run test soak venv venv-test node-deps python messages compilemessages bench clean

python:
	@py=$$($(find_python)) && echo "$$py: $$($$py --version)"

$(BIN)/python:
	@py=$$($(find_python)) || exit 1; \
	echo "Creating $(VENV) with $$py ($$($$py --version))"; \
	"$$py" -m venv $(VENV) && $(BIN)/python -m pip install -q --upgrade pip

# setup.py builds two move generators in C (optional: without a compiler the engines use
# their Python functions); a change of a C file rebuilds them.
NATIVE := setup.py games/engines/native_module.h games/engines/karo/_quatre_moves.c games/engines/drumlin/_drumlin_moves.c

$(VENV)/.installed: pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $@ $(VENV)/.installed

$(VENV)/.installed-bench: pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	@touch $@ $(VENV)/.installed-test $(VENV)/.installed

venv: $(VENV)/.installed
venv-test: $(VENV)/.installed-test node-deps

# The node packages (package.json, pinned in package-lock.json): jsqr, the shelf check's
# QR decoder, served from node_modules/jsqr/dist (ludo/settings.py, STATICFILES_DIRS);
# axe-core, which the accessibility tests inject into the pages (tests/a11y.py), never
# served. npm ci writes node_modules/.package-lock.json: reinstalled when the lock changes.
node-deps: node_modules/.package-lock.json
# Without npm the accessibility tests skip (and fail under CI, which installs it) and the
# shelf check reads labels only where the browser has a BarcodeDetector (or typed by hand).
node_modules/.package-lock.json: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: the accessibility tests will skip and the shelf check has no QR decoder (apt-get install npm)"; exit 0; }; \
	npm ci --ignore-scripts --no-audit --no-fund && touch $@

# The worker (bots, clocks, OCR, emails) runs beside daphne and stops with it.
# The WebSocket message limit docs/protocol.md promises (games.protocol.MAX_SOCKET_MESSAGE_BYTES).
DAPHNE_LIMITS = --websocket-max-message-size 1048576 --websocket-max-frame-size 1048576

run: venv node-deps
	$(BIN)/python manage.py migrate --noinput
	SITE_URL=$${SITE_URL:-http://$(HOST):$(PORT)} $(BIN)/python manage.py load_demo
	@echo "Ludo on http://$(HOST):$(PORT)/ (English: /en/). Ctrl-C stops the site and the worker."
	@$(BIN)/python manage.py worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT; \
	$(BIN)/daphne $(DAPHNE_LIMITS) -b $(HOST) -p $(PORT) ludo.asgi:application

# Line coverage of the test process (pyproject.toml, [tool.coverage]); sys.monitoring
# (Python 3.12+) makes it cheap.
PYTEST = $(if $(COVERAGE),COVERAGE_CORE=sysmon $(BIN)/python -m coverage run -m pytest,$(BIN)/python -m pytest)

test: venv-test
	$(PYTEST) $(PYTEST_ARGS)

# The soaks (marker "slow": hundreds of games, two silent minutes) in their full form;
# the suite (make test, CI) runs them reduced (tests/conftest.py, soak()).
soak: venv-test
	LUDO_SOAK=full $(PYTEST) -m slow $(PYTEST_ARGS)

bench: soak $(VENV)/.installed-bench
	$(BIN)/python bench/engines.py
	$(BIN)/python bench/limits.py
	$(BIN)/python bench/worker_idle.py

# msgids are English; fill the French msgstr, leave the English ones empty, then
# `make compilemessages` and commit the .po and .mo files (tests/test_translations.py).
messages: venv
	$(BIN)/python manage.py makemessages -l fr -l en --no-obsolete --no-location $(MAKEMESSAGES_IGNORES)
	$(BIN)/python manage.py makemessages -d djangojs -l fr -l en --no-obsolete --no-location $(MAKEMESSAGES_IGNORES)

compilemessages: venv
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) var staticfiles artifacts .pytest_cache node_modules build
	find games -name '*.so' -delete
