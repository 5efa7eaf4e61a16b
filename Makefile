# Ferroshop: `make run` builds everything and opens the demo shop; `make test` runs
# every test (Rust on SQLite and, with FERROSHOP_TEST_POSTGRES_URL set, PostgreSQL;
# the API fuzzer; web unit tests; browser tests in Chromium).

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

BIND ?= 127.0.0.1:8080
DATABASE ?= sqlite://data/ferroshop.db

.PHONY: help run build web test test-rust test-fuzz test-web test-browser test-lighthouse bench bench-checkout check clean

help:
	@echo "make run     build the storefront and server, start the demo shop on http://$(BIND)/"
	@echo "make test    run every test: Rust (SQLite, PostgreSQL when FERROSHOP_TEST_POSTGRES_URL is set), API fuzzer, web unit, browser, Lighthouse"
	@echo "make test-fuzz   fuzz the API against its OpenAPI description (schemathesis)"
	@echo "make test-lighthouse   Lighthouse (mobile) on home, shop, product, cart and checkout; fails under budget"
	@echo "make bench   run the HTTP benchmarks (see bench/README.md)"
	@echo "make bench-checkout   orders per second and update-customer latency"
	@echo "make check   formatting and lints: rustfmt, clippy, ESLint and the TypeScript check"

run: web build
	./target/release/ferroshop serve --bind $(BIND) --database $(DATABASE) --demo

build:
	./scripts/need cargo
	cargo build --release -p ferroshop

web/node_modules/.installed: web/package.json web/package-lock.json
	./scripts/need npm
	cd web && npm ci --no-audit --no-fund
	touch $@

web: web/node_modules/.installed
	cd web && npm run build

test: test-rust test-fuzz test-web test-browser test-lighthouse

test-rust:
	./scripts/need cargo
	./scripts/ensure-python-tools
	cargo test --workspace
	@echo "make $@: done at $$(date -u +%T)"

# The server answers every call as its published description (openapi.json) says.
test-fuzz:
	./scripts/need cargo
	cargo build -p ferroshop
	./scripts/fuzz-api target/debug/ferroshop
	@echo "make $@: done at $$(date -u +%T)"

test-web: web/node_modules/.installed
	cd web && npm run typecheck && npm test
	@echo "make $@: done at $$(date -u +%T)"

# The build first: the product page's initial JavaScript must stay within its budget.
test-browser: web/node_modules/.installed
	./scripts/ensure-chromium
	./scripts/ensure-python-tools
	cd web && npm run build && npm run size
	cargo build -p ferroshop
	cargo build -p ferroshop-provider-double
	cd web && FERROSHOP_BIN=../target/debug/ferroshop npm run test:e2e
	@echo "make $@: done at $$(date -u +%T)"

# Lighthouse scores and Web Vitals budgets per page (see web/scripts/lighthouse.mjs),
# five runs a page, each figure's median judged. On the server the tests built: what
# Lighthouse weighs is the storefront in the browser, and the server's first byte
# differs from a release build's by milliseconds (a render takes 20-40 ms in either).
test-lighthouse: web/node_modules/.installed
	./scripts/ensure-chromium
	cd web && npm run build
	./scripts/need cargo
	cargo build -p ferroshop
	cd web && FERROSHOP_BIN=../target/debug/ferroshop LIGHTHOUSE_RUNS=$${LIGHTHOUSE_RUNS:-5} npm run lighthouse
	@echo "make $@: done at $$(date -u +%T)"

bench:
	./bench/run.sh

bench-checkout:
	./bench/run-checkout.sh

check: web/node_modules/.installed
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	cd web && npm run lint && npm run typecheck
	@echo "make $@: done at $$(date -u +%T)"

clean:
	cargo clean
	rm -rf web/dist web/node_modules data
