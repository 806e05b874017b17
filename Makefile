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

install: $(STAMP)

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
