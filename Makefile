# Narrator: build, run and test. Every target installs the Debian packages it needs first.
SWIFT      ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIG     ?= debug
SWIFTFLAGS ?=
BIN        := .build/$(CONFIG)
BENCH_OUT  ?= bench-results.json

# Build and link: eSpeak NG, pcaudiolib, SQLite. Tests: a real sound server to record from.
BUILD_PACKAGES := libespeak-ng-dev espeak-ng-data libpcaudio-dev libsqlite3-dev pkg-config
TEST_PACKAGES  := pulseaudio pulseaudio-utils sox espeak-ng sqlite3 python3

.PHONY: all deps test-deps build run test bench clean help

all: build

help:
	@echo "make run     build and start narratord in the foreground"
	@echo "make test    run every test (installs what they need)"
	@echo "make bench   run the benchmarks (release build), writing $(BENCH_OUT)"
	@echo "make deps    install the Debian packages needed to build"

define ensure_packages
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "Missing Debian packages. Install them with:"; \
	    echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
endef

deps:
	$(call ensure_packages,$(BUILD_PACKAGES))

test-deps: deps
	$(call ensure_packages,$(TEST_PACKAGES))

build: deps
	$(SWIFT) build -c $(CONFIG) $(SWIFTFLAGS)

run: build
	$(BIN)/narratord $(ARGS)

test: test-deps
	$(SWIFT) build $(SWIFTFLAGS)
	$(SWIFT) test $(SWIFTFLAGS)

bench: deps
	$(SWIFT) build -c release $(SWIFTFLAGS)
	.build/release/narrator-bench --out $(BENCH_OUT)

clean:
	rm -rf .build $(BENCH_OUT)
