# Embedding Lab: every task is one command. The first one creates .venv/
# and installs the pinned requirements; later ones reuse it.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LOCK_VENV := _build/lock-venv

.PHONY: lab test notebooks exercises book grade handout lock clean-venv

$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "Embedding Lab needs Python 3.11 or newer (its pinned requirements do);" \
	       "'$(PYTHON)' is $$($(PYTHON) --version 2>&1 || echo missing). Install one and run, e.g.," \
	       "make $(MAKECMDGOALS) PYTHON=python3.11" >&2; exit 1; }
	@echo "Setting up $(VENV)/: the first time only, a few minutes of quiet pip installs"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# Jupyter refuses to run as root unless told to (e.g. inside a container).
LAB_ARGS ?= $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

## lab: set up (first time) and open the course in JupyterLab at lesson 01 (LAB_ARGS=--no-browser etc.)
##      It serves the course's top folder (root_dir=.): `jupyter lab FILE` alone serves
##      FILE's folder, and exercises/, solutions/, book/ and the links to them are 404.
lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_ARGS) --ServerApp.root_dir=. notebooks/01-toy-table.ipynb

## test: set up (first time) and run every test: library, notebooks (nbval strict), generated exercises, book
##       (three workers on two cores: a worker waiting on a sandbox, a browser or a cell limit leaves its core
##       to the third; about 195 s against 220-230 s with two, on two quiet cores)
test: $(STAMP)
	$(BIN)/python -m pytest -n 3 --dist loadfile

## notebooks: re-execute notebooks in place and normalize them (NB=path to pick some)
notebooks: $(STAMP)
	$(BIN)/python tools/run_notebooks.py $(NB)

## exercises: regenerate exercises/ and the answer keys from solutions/ (LESSON=NN-slug to pick one)
exercises: $(STAMP)
	$(BIN)/python tools/make_exercises.py $(LESSON)

## book: build the static site into _build/html (fetches MathJax & widget JS first, so it reads offline)
book: $(STAMP)
	$(BIN)/python tools/fetch_book_assets.py
	$(BIN)/jupyter-book build . -W -n --keep-going

## grade: grade submissions into grades/ (git-ignored), e.g. make grade SUBMISSIONS=path/to/folder
##        a class: KEYS="class/instructor-keys ..." (also ROSTER=roster.csv LAYOUT=canvas|moodle POLICY=policy.toml)
##        REPORT=report.html: the class report; FEEDBACK=DIR: each learner's feedback (needs KEYS)
##        MANUAL=DIR: written answers marked by hand (marking pages, manual.csv; needs KEYS)
GRADES ?= grades
grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" || { echo "make grade needs SUBMISSIONS=path/to/folder" >&2; exit 2; }
	mkdir -p $(GRADES)
	$(BIN)/embedlab-grade $(SUBMISSIONS) --out $(GRADES)/scores.csv \
	  $(if $(KEYS),$(foreach k,$(KEYS),--keys $(k)) --totals $(GRADES)/totals.csv --gradebook $(GRADES)/gradebook.csv) \
	  $(if $(ROSTER),--roster $(ROSTER)) $(if $(LAYOUT),--layout $(LAYOUT)) $(if $(POLICY),--policy $(POLICY)) \
	  $(if $(REPORT),--report $(REPORT)) $(if $(FEEDBACK),--feedback $(FEEDBACK)) $(if $(MANUAL),--manual $(MANUAL))

## handout: a learner makes their own class handout from the bundle the instructor posted, e.g.
##          make handout BUNDLE=handouts.json LEARNER=you@uni.example   (writes my-work/NN-slug.ipynb)
##          SOLUTION=1: the solved notebook instead, once solutions are released (my-work/NN-slug-solution.ipynb)
handout: $(STAMP)
	@test -n "$(BUNDLE)" && test -n "$(LEARNER)" || { echo "make handout needs BUNDLE=file.json LEARNER=your-id" >&2; exit 2; }
	$(BIN)/embedlab-handout "$(BUNDLE)" --learner "$(LEARNER)" $(if $(SOLUTION),--solution)

## lock: re-pin requirements.txt (every package, CPython 3.11-3.15, Linux/macOS/Windows) from requirements.in
##       with uv's universal resolver, then check every target installs from wheels (LOCK_ARGS=--upgrade: newest)
lock:
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet -r tools/lock-tools.txt
	$(LOCK_VENV)/bin/python tools/lock.py $(LOCK_ARGS)

clean-venv:
	rm -rf $(VENV)
