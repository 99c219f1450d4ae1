# Ludo: `make run` serves the site with demo content; `make test` runs the whole suite.
# Both are idempotent. PYTHON=/path/to/python3.12 overrides the interpreter search.

SHELL := /bin/bash
VENV  ?= .venv
BIN   := $(VENV)/bin
HOST  ?= 127.0.0.1
PORT  ?= 8000

# A Python that actually runs and is 3.12 or newer: PATH first, then pyenv's versions.
define find_python
for c in $${PYTHON:-} python3.13 python3.12 python3 python \
         $$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV); do \
  [ -n "$$c" ] || continue; \
  if "$$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then \
    command -v "$$c"; exit 0; fi; \
done; exit 1
endef

.PHONY: run test venv venv-test check-python messages compilemessages bench clean

check-python:
	@py=$$($(find_python)) || { echo "error: no working Python 3.12+ found on PATH or in pyenv's versions." >&2; \
	  echo "Install Python 3.12 or newer, or run: make PYTHON=/path/to/python3.12 ..." >&2; exit 1; }; \
	echo "Using $$py ($$($$py --version))"

$(BIN)/python:
	@py=$${PYTHON:-$$($(find_python))} || { echo "error: no working Python 3.12+ found on PATH or in pyenv's versions; set PYTHON=/path/to/python3.12" >&2; exit 1; }; \
	"$$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' || { echo "error: $$py is older than 3.12 (Django 6 needs 3.12+)" >&2; exit 1; }; \
	echo "Creating $(VENV) with $$py"; "$$py" -m venv $(VENV) && $(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	@touch $@ $(VENV)/.installed

venv: $(VENV)/.installed
venv-test: $(VENV)/.installed-test

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/python manage.py load_demo
	$(BIN)/daphne -b $(HOST) -p $(PORT) ludo.asgi:application

test: venv-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: venv-test
	$(BIN)/python bench/engines.py

messages: venv
	$(BIN)/python manage.py makemessages -l fr -l en --no-obsolete --no-location --ignore '.venv/*' --ignore 'var/*' --ignore 'tests/*' --ignore 'bench/*'
	$(BIN)/python manage.py makemessages -d djangojs -l fr -l en --no-obsolete --no-location --ignore '.venv/*' --ignore 'var/*' --ignore 'staticfiles/*'

compilemessages: venv
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache
