# Two commands do everything on a fresh machine with Python 3.11:
#   make book   set up .venv, execute every chapter, build the HTML book
#   make test   set up .venv, run the unit tests, nbval over every notebook,
#               build the book and test it in headless Chromium
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NB     := $(sort $(wildcard book/[0-9][0-9]_*.ipynb))
JOBS   ?= 2

.PHONY: help setup book pdf tex test unit nbval browser lab bench clean

help:
	@echo "make book   build the HTML book into _build/html"
	@echo "make test   run every test (unit, notebooks, browser)"
	@echo "make pdf    build the PDF edition into _build/latex/book.pdf"
	@echo "make lab    open the chapters in JupyterLab"
	@echo "make bench  run the benchmarks (writes benchmarks/*.md)"

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

setup: $(STAMP)

# The book: every notebook re-executed (two at a time, into a fresh cache),
# then built with warnings as errors.  SVMLIB_STATIC_WIDGETS
# makes each interactive figure also emit its kernel-free HTML rendering.
# IPYTHONDIR: the kernels store static figures at 2x (book/_ext/ipython).
BOOK_ENV := SVMLIB_STATIC_WIDGETS=1 IPYTHONDIR=$(CURDIR)/book/_ext/ipython

book: $(STAMP)
	$(BOOK_ENV) $(BIN)/python book/execute_chapters.py
	$(BOOK_ENV) $(BIN)/jupyter-book build . --all -W -n --keep-going
	@echo "The book is built: open _build/html/index.html"

# The PDF edition: Jupyter Book's LaTeX builder and XeLaTeX from Debian's TeX
# packages (installed here if missing and we are root; about 110 MB to
# download).  Each interactive figure appears as the frame it opens with and
# a pointer to the HTML edition (book/_ext/svmlib_reading.py).  Reuses the
# executed chapters of `make book` when they are in the cache.
TEX_PACKAGES := texlive-latex-recommended texlive-latex-extra texlive-xetex \
	texlive-fonts-recommended texlive-plain-generic latexmk fonts-freefont-otf

tex:
	@command -v xelatex >/dev/null && command -v latexmk >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	      apt-get install -y -qq --no-install-recommends $(TEX_PACKAGES); \
	  else echo "install TeX first: sudo apt-get install $(TEX_PACKAGES)"; exit 1; fi; }

pdf: $(STAMP) tex
	$(BOOK_ENV) $(BIN)/jupyter-book build . --builder pdflatex --keep-going
	@test -s _build/latex/book.pdf || { echo "no PDF: see _build/latex/book.log"; exit 1; }
	@if [ -f _build/html/index.html ]; then $(BIN)/python book/_ext/svmlib_reading.py _build/html; fi
	@echo "The PDF is built: _build/latex/book.pdf"

unit: $(STAMP)
	$(BIN)/pytest -q -n $(JOBS) tests -m "not browser"

nbval: $(STAMP)
	$(BIN)/pytest -q -n $(JOBS) --dist loadscope --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg $(NB)

browser: $(STAMP)
	$(BIN)/pytest -q tests -m browser

test: unit nbval book browser

lab: $(STAMP)
	$(BIN)/jupyter lab book/

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_solvers.py
	$(BIN)/python benchmarks/bench_widgets.py

clean:
	rm -rf _build
