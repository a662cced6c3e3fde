# Two entry points, each doing its whole set-up on a fresh machine with Python 3.11:
#   make run   - create .venv, install, serve the app on http://127.0.0.1:8000
#   make test  - create .venv, install, lint, run every test
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint serve clean

# Reinstall only when the project definition changed.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/agari serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	@bash scripts/test-services.sh
	$(BIN)/python -m pytest -n 2

clean:
	rm -rf $(VENV) build *.egg-info
