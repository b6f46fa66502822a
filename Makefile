# The two commands a new user runs: `make build` and `make test`. Both set up .venv when needed: `make build`
# with what the pipeline needs to run (requirements.txt), `make test` with the test tools too
# (requirements-test.txt). Either installs the project itself in editable mode, so `.venv/bin/exam-prep` works.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install -q --disable-pip-version-check
STAMP  := $(VENV)/.installed-$(shell cat requirements.txt pyproject.toml | cksum | cut -d' ' -f1)
TEST_STAMP := $(VENV)/.installed-test-$(shell cat requirements.txt requirements-test.txt pyproject.toml | cksum | cut -d' ' -f1)
# Wheels of every pinned package and of the build backend, so the fresh-venv test installs offline.
WHEELS := $(VENV)/wheels
WHEEL_STAMP := $(WHEELS)/.made-$(shell cat requirements.txt requirements-test.txt | cksum | cut -d' ' -f1)
ARGS   ?=
# The pipeline as a target runs it: EXAM_PREP_RUN_BY=make makes its advice name the targets (`make examples ARGS=...`).
RUN    := EXAM_PREP_RUN_BY=make $(PY) -m pipeline

.PHONY: build test test-fast validate audit examples serve schema golden bench lint clean lock vendor docs docs-ref docs-serve system-deps browser-deps sandbox-deps

# The study site ships ts-fsrs, committed in pipeline/vendor/ (`make vendor`): building needs no npm.
build: $(STAMP)
	$(RUN) build $(ARGS)

test: $(TEST_STAMP) browser-deps sandbox-deps $(WHEEL_STAMP)
	$(PY) -m pytest $(ARGS)

# Everything but the browser and slow tests (markers in pyproject.toml, applied in tests/conftest.py): needs
# neither chromium nor bubblewrap nor the network. `make test` still runs them all.
test-fast: $(TEST_STAMP)
	$(PY) -m pytest -m "not browser and not slow" $(ARGS)

validate: $(STAMP)
	$(RUN) validate $(ARGS)

audit: $(STAMP)
	$(RUN) audit $(ARGS)

# Run every worked example in the sandbox and update sources/<exam>/examples.lock.json. The packages the
# examples need (exam.yaml `examples.requirements`, e.g. torch) go into environments of their own under
# build/examples/envs, never into .venv: `make test` needs none of them.
examples: $(STAMP) sandbox-deps
	$(RUN) examples $(ARGS)

serve: $(STAMP)
	$(RUN) serve $(ARGS)

# Regenerate the committed JSON Schemas from the models (a test fails when they are stale).
schema: $(STAMP)
	$(RUN) schema

# Rewrite the golden files in tests/golden/ from the current code; review the diff like code.
golden: $(TEST_STAMP)
	UPDATE_GOLDEN=1 $(PY) -m pytest -q -k golden

# The documentation site (mkdocs with the Material theme, pinned in requirements-test.txt) into site/; --strict: a
# warning, a broken link or an anchor that is not there fails. `make docs-serve` previews it, reloading on edits.
docs: $(TEST_STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet

docs-serve: $(TEST_STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs serve --strict --dev-addr 127.0.0.1:8001

# Regenerate docs/reference/ from the code (the parsers, models, codes, outputs); a test fails when it is stale.
docs-ref: $(TEST_STAMP)
	$(PY) -m docsgen

bench: $(TEST_STAMP)
	$(PY) -m bench $(ARGS)

lint: $(TEST_STAMP)
	$(PY) -m ruff check pipeline schema tests bench docsgen

clean:
	rm -rf build site .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# Re-pin requirements.txt from requirements.in, and requirements-test.txt from requirements-test.in (what the
# tests add beyond the runtime's pins). Needs the registries; review the diff.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install -q -r requirements.in
	.lock-venv/bin/pip freeze > .lock-runtime.txt
	{ echo '# Pinned versions of requirements.in and everything it pulls in: `make lock` rewrites this file.'; \
	  cat .lock-runtime.txt; } > requirements.txt
	.lock-venv/bin/pip install -q -r requirements-test.in -c .lock-runtime.txt
	{ echo '# Pinned versions of requirements-test.in and what it pulls in beyond requirements.txt: `make lock` rewrites this file.'; \
	  echo '-r requirements.txt'; .lock-venv/bin/pip freeze | grep -vxFf .lock-runtime.txt; } > requirements-test.txt
	rm -rf .lock-venv .lock-runtime.txt

# After a new pin of ts-fsrs or iframe-worker in package.json (and `npm install`): copy npm's files into pipeline/vendor/,
# the copy the pipeline ships, and the docs site's search shim into docs/assets/ (tests/test_site_vendor.py and
# tests/test_docs_site.py check they are the same bytes). Review the diff.
vendor: node_modules/.package-lock.json
	mkdir -p pipeline/vendor/ts-fsrs/dist
	cp node_modules/ts-fsrs/package.json node_modules/ts-fsrs/LICENSE pipeline/vendor/ts-fsrs/
	cp node_modules/ts-fsrs/dist/index.umd.js pipeline/vendor/ts-fsrs/dist/
	mkdir -p docs/assets/iframe-worker
	cp node_modules/iframe-worker/shim/index.js docs/assets/iframe-worker/shim.js
	cp node_modules/iframe-worker/LICENSE docs/assets/iframe-worker/

# weasyprint needs Pango and HarfBuzz-Subset from the system, the guide the DejaVu fonts; install what
# is missing (Debian, as root). Nothing happens when all are there.
SYSTEM_LIBS := libpangoft2-1.0.so.0 libharfbuzz-subset.so.0
system-deps:
	@missing=""; \
	for lib in $(SYSTEM_LIBS); do ldconfig -p 2>/dev/null | grep -q "$$lib" || missing="$$missing $$lib"; done; \
	[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts"; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages for weasyprint (missing:$$missing)"; \
	  apt-get update -qq && apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core; \
	fi

# Runtime only. A venv that has the test tools already (TEST_STAMP) counts: make test, then make build, must
# not uninstall anything.
$(STAMP): requirements.txt pyproject.toml
	@$(MAKE) --no-print-directory system-deps
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements.txt
	$(PIP) --no-deps -e .
	touch $@

$(TEST_STAMP): requirements.txt requirements-test.txt pyproject.toml
	@$(MAKE) --no-print-directory system-deps
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements-test.txt
	$(PIP) --no-deps -e .
	rm -f $(VENV)/.installed-* && touch $@ $(STAMP)

$(WHEEL_STAMP): requirements.txt requirements-test.txt
	rm -rf $(WHEELS)
	$(PY) -m pip wheel -q --disable-pip-version-check -w $(WHEELS) -r requirements.txt "$$(grep -i '^hatchling==' requirements-test.txt)"
	touch $@

# The study-site tests drive Debian's chromium with Playwright (never `playwright install`) and inject
# axe-core from npm (pinned in package.json + package-lock.json). Install what is missing (Debian, as root).
browser-deps: node_modules/.package-lock.json
	@command -v chromium >/dev/null || { echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

# Worked examples run in bubblewrap (Debian's bubblewrap: bwrap), never outside it. Install it when missing
# (Debian, as root).
sandbox-deps:
	@command -v bwrap >/dev/null || { echo "installing Debian's bubblewrap"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null; }

# The npm packages: ts-fsrs for the site (committed in pipeline/vendor/; installed here so a test can compare the
# two), axe-core and gift-pegjs for the tests.
# npm ci rewrites node_modules/.package-lock.json: the stamp. Test for npm, not node: Debian's npm is a
# package of its own, and must not be added beside a nodejs that bundles it.
node_modules/.package-lock.json: package.json package-lock.json
	@command -v npm >/dev/null || { echo "installing Debian's nodejs and npm"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; }
	npm ci --no-audit --no-fund --loglevel=error
