# Transit toolkit: build, demo, tests and benchmarks.
SWIFT ?= swift
BIN_DEBUG = .build/debug
BIN_RELEASE = .build/release
SHARED ?= ../shared
OUT = out
# CI sets SWIFT_FLAGS=-Xswiftc -warnings-as-errors (see .ci/run).
SWIFT_FLAGS ?=

.PHONY: all deps build release demo test test-fast test-real schema snippets bench bench-targets bench-server bench-sync bench-report bench-store bench-peers bench-peers-journeys fuzz sanitize lint format docs clean

all: build

# Installs the system libraries a bare machine lacks (Debian/Ubuntu).
deps:
	@missing=""; \
	for p in libsqlite3-dev zlib1g-dev libisal-dev libssl-dev tzdata unzip strace nginx tinyproxy openssl wrk gzip postgresql chromium chromium-driver; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi
	@# The manifest test validates against schemas/manifest.schema.json with Python's jsonschema.
	@python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install --quiet jsonschema
	@# The server test validates /openapi.json with openapi-spec-validator.
	@python3 -c 'import openapi_spec_validator' 2>/dev/null || python3 -m pip install --quiet openapi-spec-validator
	@# ... and generates requests from it with schemathesis.
	@python3 -c 'import schemathesis' 2>/dev/null || python3 -m pip install --quiet schemathesis

# Copies the README's Swift blocks into Examples/ReadmeSnippets, which every build compiles
# (ReadmeSnippetTests fails when the copy is not the code of README.md and docs/).
snippets:
	python3 tools/readme_snippets.py

# Regenerates the Swift copy of schemas/bundle.sql (a test fails when they differ).
schema:
	@{ printf '// swift-format-ignore-file\n// Generated from schemas/bundle.sql by `make schema`. Do not edit.\nextension BundleSchema {\n    package static let sql = #"""\n'; \
	  cat schemas/bundle.sql; printf '"""#\n}\n'; } > Sources/BundleFormat/BundleSchema+SQL.swift

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release

# Compiles the sample feeds and cities into one bundle and asks it a few questions.
demo: build
	@mkdir -p $(OUT)
	$(BIN_DEBUG)/gtfs-compile gtfs-samples/metro gtfs-samples/valley --cities gtfs-samples/cities.json -o $(OUT)/demo.db
	$(BIN_DEBUG)/transit-query info --bundle $(OUT)/demo.db
	$(BIN_DEBUG)/transit-query departures --bundle $(OUT)/demo.db --stop CENTRAL --at 2026-03-28T23:50 --window 120
	$(BIN_DEBUG)/transit-query stops --bundle $(OUT)/demo.db --search "zurich"
	$(BIN_DEBUG)/transit-query cities --bundle $(OUT)/demo.db --search "lisboa"
	$(BIN_DEBUG)/transit-query city --bundle $(OUT)/demo.db zurich

# One release build with testing enabled serves both suites: the unit tests, then the
# real-feed suite (skips without $(SHARED)). One configuration instead of two keeps CI
# under its 30 minutes (AsyncHTTPClient with SwiftNIO and BoringSSL alone takes about 7 of
# them per configuration). `make test-fast` runs the unit tests from a debug build.
TEST_BUILD = -c release -Xswiftc -enable-testing $(SWIFT_FLAGS)
# The tests read the shared data from $(SHARED); with CI or REQUIRE_SHARED set, a test that
# would skip for lack of it (or of root, nginx, tinyproxy) fails instead.
test: deps
	$(SWIFT) build $(TEST_BUILD) --build-tests
	SHARED=$(SHARED) $(SWIFT) test $(TEST_BUILD) --skip-build --skip RealFeedTests
	SHARED=$(SHARED) $(SWIFT) test $(TEST_BUILD) --skip-build --filter RealFeedTests

# The DocC catalogues of TransitRuntime, TransitCities, TransitRealtime, TransitStore and
# GTFSCompiler, as static sites in .build/docs/TARGET.doccarchive, with warnings (an
# unresolved link, say) as errors. One plugin run for the five (one run each took 178 s
# against 101 s here). The symbol graphs come from the same release build as `make test`
# (same flags, so after it nothing is compiled again).
DOC_TARGETS = TransitRuntime TransitCities TransitRealtime TransitStore GTFSCompiler TransitClient TransitServer TransitSync
docs:
	@rm -rf .build/docs && mkdir -p .build/docs
	$(SWIFT) package $(TEST_BUILD) --allow-writing-to-directory .build/docs generate-documentation \
	  $(foreach target,$(DOC_TARGETS),--target $(target)) \
	  --warnings-as-errors --output-path .build/docs --transform-for-static-hosting
	@echo "documentation in .build/docs/{$(shell echo $(DOC_TARGETS) | tr ' ' ',')}.doccarchive/index.html"

# The house style (.swift-format), no wall clock in test code (tools/lint_test_clock.py), and
# a doc comment on every public declaration of the libraries (tools/lint_doc_comments.py).
lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Fuzz Examples Package.swift
	python3 tools/lint_test_clock.py
	python3 tools/lint_doc_comments.py

format:
	$(SWIFT) format format --in-place --recursive Sources Tests Fuzz Examples Package.swift

test-fast: deps
	SHARED=$(SHARED) $(SWIFT) test --skip RealFeedTests

bench: release
	bash bench/run.sh
	SHARED=$(SHARED) bash bench/store.sh
	$(MAKE) --no-print-directory bench-report
	$(MAKE) --no-print-directory bench-peers

# Every figure of bench/targets.json against its limit (the speed targets, and the bundle
# sizes of the shared feeds and of 40 x Strasbourg): fails when one is missed.
bench-targets: release
	@mkdir -p $(BENCH_DIR)
	@[ -f $(BENCH_DIR)/cts-x10.zip ] || python3 $(SHARED)/tools/scale_feed.py $(SHARED)/feeds/cts-strasbourg.zip $(BENCH_DIR)/cts-x10.zip 10
	@[ -f $(BENCH_DIR)/cts-x40.zip ] || python3 $(SHARED)/tools/scale_feed.py $(SHARED)/feeds/cts-strasbourg.zip $(BENCH_DIR)/cts-x40.zip 40
	$(BIN_RELEASE)/gtfs-compile $(BENCH_DIR)/cts-x10.zip -o $(BENCH_DIR)/cts-x10.db --quiet
	$(BIN_RELEASE)/gtfs-compile $(BENCH_DIR)/cts-x40.zip -o $(BENCH_DIR)/cts-x40.db --quiet
	python3 bench/check_targets.py $(BIN_RELEASE) $(BENCH_DIR) $(SHARED)

# The offline store alone: download against curl, SHA-256, start-up with 50 bundles.
bench-store: release
	SHARED=$(SHARED) bash bench/store.sh

# The bundle beside gtfs-garage-core (DuckDB) and gtfs-parquet (Polars), installed from
# PyPI into a venv under .build, on cts-strasbourg and its 10x copy (bench/peers.py).
PEERS_VENV = .build/peers-venv
BENCH_DIR ?= /tmp/transit-bench
# transit-server beside transit-query batch on the 10 x Strasbourg bundle (wrk over
# loopback): docs/performance.md, "Server".
bench-server: release
	@mkdir -p $(BENCH_DIR)
	@[ -f $(BENCH_DIR)/cts-x10.zip ] || python3 $(SHARED)/tools/scale_feed.py $(SHARED)/feeds/cts-strasbourg.zip $(BENCH_DIR)/cts-x10.zip 10
	@[ -f $(BENCH_DIR)/cts-x10.db ] || $(BIN_RELEASE)/gtfs-compile $(BENCH_DIR)/cts-x10.zip -o $(BENCH_DIR)/cts-x10.db
	python3 bench/server_bench.py $(BIN_RELEASE) $(BENCH_DIR)/cts-x10.db 10

# The compile report of the 40 x Strasbourg feed and of Vilnius (shapes) as HTML: size, and
# how long chromium takes to open it (bench/report_load.py; the issue's targets: 5 MB, 2 s).
bench-report: release
	@mkdir -p $(BENCH_DIR)
	@[ -f $(BENCH_DIR)/cts-x40.zip ] || python3 $(SHARED)/tools/scale_feed.py $(SHARED)/feeds/cts-strasbourg.zip $(BENCH_DIR)/cts-x40.zip 40
	$(BIN_RELEASE)/gtfs-compile $(BENCH_DIR)/cts-x40.zip -o $(BENCH_DIR)/report-x40.db --report-html $(BENCH_DIR)/report-x40.html --quiet
	python3 bench/report_load.py $(BENCH_DIR)/report-x40.html 5
	$(BIN_RELEASE)/gtfs-compile $(SHARED)/feeds/vilnius.zip -o $(BENCH_DIR)/report-vilnius.db --report-html $(BENCH_DIR)/report-vilnius.html --quiet
	python3 bench/report_load.py $(BENCH_DIR)/report-vilnius.html 5

# Rider-data sync (bench/sync_bench.py): a push of 500 actions and a pull of 10,000 changed
# items on SQLite and PostgreSQL (started on 127.0.0.1), and a local change's cost on the device.
bench-sync: release
	python3 bench/sync_bench.py $(BIN_RELEASE)

bench-peers: release
	@[ -x $(PEERS_VENV)/bin/python ] || python3 -m venv $(PEERS_VENV)
	@$(PEERS_VENV)/bin/python -c 'import gtfs_garage_core, gtfs_parquet' 2>/dev/null || \
	  $(PEERS_VENV)/bin/pip install --quiet gtfs-garage-core==0.6.0 gtfs-parquet==0.7.2
	@mkdir -p $(BENCH_DIR)
	@[ -f $(BENCH_DIR)/cts-x10.zip ] || python3 $(SHARED)/tools/scale_feed.py $(SHARED)/feeds/cts-strasbourg.zip $(BENCH_DIR)/cts-x10.zip 10
	$(PEERS_VENV)/bin/python bench/peers.py $(BIN_RELEASE) $(BENCH_DIR) $(SHARED)/feeds/cts-strasbourg.zip $(BENCH_DIR)/cts-x10.zip
	@$(MAKE) --no-print-directory bench-peers-journeys

# Journeys beside the RAPTOR planners on PyPI, pyraptor (pandas 1.5 wants numpy < 2, hence
# its own venv) and ferrobus (on a street grid drawn for it, converted by osmium-tool), on
# bart and cts-strasbourg (bench/journey_peers.py).
JOURNEY_VENV = .build/journey-peers-venv
bench-peers-journeys: release
	@command -v osmium >/dev/null || { SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get install -y -q osmium-tool >/dev/null; }
	@[ -x $(JOURNEY_VENV)/bin/python ] || python3 -m venv $(JOURNEY_VENV)
	@$(JOURNEY_VENV)/bin/python -c 'import pyraptor, ferrobus, attr' 2>/dev/null || \
	  $(JOURNEY_VENV)/bin/pip install --quiet pyraptor==1.3.10 ferrobus==0.2.1 attrs 'numpy<2'
	@mkdir -p $(BENCH_DIR)
	$(JOURNEY_VENV)/bin/python bench/journey_peers.py $(BIN_RELEASE) $(BENCH_DIR) $(SHARED)/feeds/bart.zip 50
	$(JOURNEY_VENV)/bin/python bench/journey_peers.py $(BIN_RELEASE) $(BENCH_DIR) $(SHARED)/feeds/cts-strasbourg.zip 50

clean:
	rm -rf .build $(OUT)

# Runs the libFuzzer targets (csv, zip, fields, json) for FUZZ_SECONDS each.
fuzz:
	bash Fuzz/run.sh

# The unit tests under ThreadSanitizer and AddressSanitizer (separate build folders).
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --skip RealFeedTests
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --skip RealFeedTests --skip TransitStoreTests
	@# The store's tests spawn, kill and poll processes from async tests; Foundation's Process
	@# and Pipe then form retain cycles that LeakSanitizer reports as indirect leaks, which
	@# suppressions cannot match. They run under AddressSanitizer without leak detection.
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --filter TransitStoreTests

