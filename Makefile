# Two commands on a fresh machine with Python 3.11+ and make: `make run`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint worker bench migrate demo install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python requirements.txt requirements-dev.txt
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# Written once, never over an existing file: a generated SECRET_KEY and DEBUG on, so that
# `python manage.py ...` works in the venv as the README says. The settings read it; a
# variable set in the environment (as CI sets them) always wins over the file.
.env:
	@umask 077 && $(PYTHON) -c "import secrets; print('# Written once by make for this machine: keep it out of git. The environment wins over it.'); print('SECRET_KEY=' + secrets.token_urlsafe(50)); print('DEBUG=1')" > $@.tmp && mv -n $@.tmp $@ && rm -f $@.tmp
	@echo "Wrote .env (a new SECRET_KEY, DEBUG=1)"

install: $(STAMP) .env

migrate: install
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput

demo: migrate
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py load_demo --if-empty

run: demo
	@echo "Serving http://$(HOST):$(PORT)/  (director log in: director / director)"
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check .

test: lint
	DEBUG=$${DEBUG:-1} $(BIN)/python -m pytest $(PYTEST_ARGS)

worker: install
	DEBUG=$${DEBUG:-1} $(BIN)/celery -A config worker --loglevel=info --concurrency=2

bench: install
	DEBUG=$${DEBUG:-1} $(BIN)/python -m bench

clean:
	rm -rf $(VENV) var/db.sqlite3
