# Two commands do everything on a fresh machine with Python 3.11:
#   make book   set up .venv, execute every chapter, build the HTML book
#   make test   set up .venv, run the unit tests, nbval over every notebook
#               (as recorded, and again under another machine's floating
#               point), build the book and test it in headless Chromium
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NB     := $(sort $(wildcard book/[0-9][0-9]_*.ipynb))
JOBS   ?= 2

.PHONY: help setup book record test unit nbval nbval-portable browser lab exercises bench clean

help:
	@echo "make book   build the HTML book into _build/html"
	@echo "make test   run every test (unit, notebooks, browser)"
	@echo "make record re-execute every chapter and store its outputs (NB=book/07_smo.ipynb for one)"
	@echo "make lab    open the chapters in JupyterLab"
	@echo "make exercises  write the exercise edition into _build/exercises"
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
book: $(STAMP)
	SVMLIB_STATIC_WIDGETS=1 $(BIN)/python book/execute_chapters.py
	SVMLIB_STATIC_WIDGETS=1 $(BIN)/jupyter-book build . --all -W -n --keep-going
	@echo "The book is built: open _build/html/index.html"

unit: $(STAMP)
	$(BIN)/pytest -q -n $(JOBS) tests -m "not browser"

# The stored outputs that nbval compares: every chapter (or NB=...) executed
# top to bottom in a fresh kernel, two at a time, and written back.
record: $(STAMP)
	$(BIN)/python book/execute_chapters.py --record $(NB)

NBVAL := $(BIN)/pytest -q -n $(JOBS) --dist loadscope --nbval --nbval-current-env \
	--nbval-sanitize-with tests/nbval_sanitize.cfg

nbval: $(STAMP)
	$(NBVAL) $(NB)

# nbval again, as on another machine: the stored outputs must not depend on
# the CPU that recorded them.  Each profile changes the floating point the
# way another x86-64 CPU would: numpy's SIMD kernels (NPY_DISABLE_CPU_FEATURES),
# OpenBLAS's matrix kernels and threads, glibc's libm variants (used by LIBSVM).
#   baseline  numpy at its x86-64-v2 baseline, OpenBLAS Sandy Bridge on one
#             thread, libm without AVX2/FMA  (the default, run by make test)
#   avx2      an AVX2 machine without AVX-512, OpenBLAS Haswell kernels
#   prescott  OpenBLAS's oldest x86-64 kernels on one thread
# e.g. make nbval-portable PROFILE=avx2
PROFILE ?= baseline
PROFILE_baseline := NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4 AVX512_ICL AVX512_SPR" \
	OPENBLAS_CORETYPE=Sandybridge OPENBLAS_NUM_THREADS=1 \
	GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F
PROFILE_avx2 := NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR" OPENBLAS_CORETYPE=Haswell
PROFILE_prescott := OPENBLAS_CORETYPE=Prescott OPENBLAS_NUM_THREADS=1

nbval-portable: $(STAMP)
	@if [ "$$(uname -m)" != "x86_64" ]; then \
		echo "nbval-portable: skipped on $$(uname -m): its profiles name x86-64 CPU features"; \
		echo "  and OpenBLAS x86 kernels; run 'make nbval' on a second machine instead."; \
	elif [ -z '$(PROFILE_$(PROFILE))' ]; then \
		echo "nbval-portable: unknown PROFILE=$(PROFILE) (baseline, avx2 or prescott)"; exit 2; \
	else \
		echo "nbval under the '$(PROFILE)' floating-point profile: $(PROFILE_$(PROFILE))"; \
		env $(PROFILE_$(PROFILE)) $(NBVAL) $(NB); \
	fi

browser: $(STAMP)
	$(BIN)/pytest -q tests -m browser

test: unit nbval nbval-portable book browser

# book/_lab is the session's Jupyter config dir, for its custom.css (how
# jupyterlab-myst shows references to other chapters and citations); the
# learner's own config, settings and workspaces are still read.
lab: $(STAMP)
	user="$$($(BIN)/jupyter --config-dir)"; \
	JUPYTER_CONFIG_DIR="$(CURDIR)/book/_lab" \
	JUPYTER_CONFIG_PATH="$$user$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	JUPYTERLAB_SETTINGS_DIR="$${JUPYTERLAB_SETTINGS_DIR:-$$user/lab/user-settings}" \
	JUPYTERLAB_WORKSPACES_DIR="$${JUPYTERLAB_WORKSPACES_DIR:-$$user/lab/workspaces}" \
	$(BIN)/jupyter lab --LabApp.custom_css=True book/

# The exercise edition: every chapter without its solutions, each code
# exercise's answer replaced by a stub (book/make_exercises.py; the marks in
# the chapters are written by book/tag_exercises.py).
exercises: $(STAMP)
	$(BIN)/python book/make_exercises.py --out _build/exercises

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_solvers.py
	$(BIN)/python benchmarks/bench_widgets.py

clean:
	rm -rf _build
