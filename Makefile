# The two commands a new user runs: `make build` and `make test`. Both set up .venv when needed.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)
ARGS   ?=

.PHONY: build test validate audit examples schema golden bench lint clean lock system-deps browser-deps

# The study site ships ts-fsrs from npm (package.json pins it): the build copies it from node_modules/, so
# `make build` runs `npm ci` first when node_modules/ is missing or stale (the registry is needed that once).
build: $(STAMP) node_modules/.package-lock.json
	$(PY) -m pipeline build $(ARGS)

test: $(STAMP) browser-deps
	$(PY) -m pytest $(ARGS)

validate: $(STAMP)
	$(PY) -m pipeline validate $(ARGS)

audit: $(STAMP)
	$(PY) -m pipeline audit $(ARGS)

# Run every worked example in the sandbox and update sources/<exam>/examples.lock.json. The packages the
# examples need (exam.yaml `examples.requirements`, e.g. torch) go into environments of their own under
# build/examples/envs, never into .venv: `make test` needs none of them.
examples: $(STAMP)
	$(PY) -m pipeline examples $(ARGS)

# Regenerate the committed JSON Schemas from the models (a test fails when they are stale).
schema: $(STAMP)
	$(PY) -m pipeline schema

# Rewrite the golden files in tests/golden/ from the current code; review the diff like code.
golden: $(STAMP)
	UPDATE_GOLDEN=1 $(PY) -m pytest -q -k golden

bench: $(STAMP)
	$(PY) -m bench $(ARGS)

lint: $(STAMP)
	$(PY) -m ruff check pipeline schema tests bench

clean:
	rm -rf build .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# Re-pin requirements.txt from requirements.in (needs the registries; review the diff).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install -q -r requirements.in
	{ echo '# Pinned versions of requirements.in and everything it pulls in: `make lock` rewrites this file.'; \
	  .lock-venv/bin/pip freeze; } > requirements.txt
	rm -rf .lock-venv

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

$(STAMP): requirements.txt
	@$(MAKE) --no-print-directory system-deps
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-* && touch $@

# The study-site tests drive Debian's chromium with Playwright (never `playwright install`) and inject
# axe-core from npm (pinned in package.json + package-lock.json). Install what is missing (Debian, as root).
browser-deps: node_modules/.package-lock.json
	@command -v chromium >/dev/null || { echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

# The npm packages: ts-fsrs for the site (build), axe-core and gift-pegjs for the tests.
# npm ci rewrites node_modules/.package-lock.json: the stamp. Test for npm, not node: Debian's npm is a
# package of its own, and must not be added beside a nodejs that bundles it.
node_modules/.package-lock.json: package.json package-lock.json
	@command -v npm >/dev/null || { echo "installing Debian's nodejs and npm"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; }
	npm ci --no-audit --no-fund --loglevel=error
