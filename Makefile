# notif: build, test, check, benchmark and install the notif-* filters.
# `make test` is the suite to run after every change; `make check` runs what CI runs: the whole
# suite once, then the rest. Every target works from a fresh clone with the Swift toolchain;
# `make check-deps` installs the Debian packages (and Python ones) the checks use.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
# Everything goes under PREFIX, fish's completions too: fish reads them there for
# PREFIX=$HOME/.local (its user data folder) and for a PREFIX whose share/ XDG_DATA_DIRS names.
# fish's own vendor folder (its pkg-config file says where) only when PREFIX is fish's own
# prefix; `make install FISHDIR=...` puts them anywhere else.
FISH_PREFIX := $(shell pkg-config --variable prefix fish 2>/dev/null)
FISH_VENDOR := $(shell pkg-config --variable completionsdir fish 2>/dev/null)
FISH_OWN = $(and $(FISH_VENDOR),$(filter $(FISH_PREFIX),$(PREFIX)),$(FISH_VENDOR))
FISHDIR = $(DESTDIR)$(or $(FISH_OWN),$(PREFIX)/share/fish/vendor_completions.d)
# The binaries are installed stripped (three fifths of their size); a packager who strips later,
# keeping the symbols apart, sets INSTALL_PROGRAM='install -m 755'.
INSTALL_PROGRAM ?= install -s -m 755

TOOLS = $(notdir $(wildcard Sources/notif-*))
DEBUG = .build/debug
RELEASE = .build/release
NOW = 2026-11-22T09:00:00Z

.PHONY: all build release test demo check format format-lint man-lint completions-check \
	width-check golden golden-release browser-test screenshot scale-test install-test hook-test \
	scalar-test thread-test check-deps bench fuzz fuzz-short install uninstall clean

all: build

build:
	swift build

# Release binaries are static executables on Linux: with no shared library to load and
# relocate (libstdc++ alone took 2.4 of the 2.7 million instructions notif-parse ran on empty
# input), a tool starts in a tenth of the work. The linker warns, some twenty times, about glibc
# calls in the static Swift runtime and Foundation ("Using 'dlopen' in statically linked
# applications requires at runtime the shared libraries...", "the use of `mktemp' is
# dangerous"): code paths the tools never take. They are left out of the build's output, which
# says so in one line; .build/make-release.log keeps them.
RELEASE_FLAGS = -c release --static-swift-stdlib \
	$(if $(filter Linux,$(shell uname -s)),-Xswiftc -static-executable)
RELEASE_LOG = .build/make-release.log
STATIC_LINK_WARNING = /swift_static/.*: warning: (Using .[a-z_0-9]*. in statically linked \
	applications|the use of .mktemp. is dangerous)

release:
	@mkdir -p .build
	@echo 'swift build $(RELEASE_FLAGS)'
	@{ swift build $(RELEASE_FLAGS); echo $$? >$(RELEASE_LOG).status; } 2>&1 \
		| tee $(RELEASE_LOG) | grep -Ev "$(STATIC_LINK_WARNING)"; \
	n=$$(grep -cE "$(STATIC_LINK_WARNING)" $(RELEASE_LOG)); \
	if [ "$$n" -gt 0 ]; then echo "make release: $$n linker warnings left out, about glibc calls" \
		"of static Foundation the tools never make (dlopen, getpwnam_r, mktemp): $(RELEASE_LOG)"; fi; \
	exit "$$(cat $(RELEASE_LOG).status)"

# The suite to run after every change: every test but the slow ones (SlowTests in
# Tests/TestSupport: the inbox soak, sweeps killed at many points, every CLDR locale against
# Babel; ten seconds to a minute each) and those that run a program the Swift toolchain does
# not bring and this machine lacks (OutsidePrograms in Tests/TestSupport: jq, GNU parallel,
# mandoc, python3), so that it passes with the toolchain alone. It ends with the list of what it
# skipped and why, read from Swift Testing's event stream (.build/make-test-events.jsonl; the
# console can miss a skip when many tests end at once). `make check` runs the whole suite,
# once: its `test` step runs the slow tests too, and so does `make test` in CI (CI set), where
# skipping either is refused: a missing program fails the tests that need it.
SLOW_TESTS ?= $(if $(CI),run,skip)
TEST_EVENTS = .build/make-test-events.jsonl
# `"text":"Test NAME skipped: \"WHY\""` of each skip event, as `  NAME: WHY`.
SKIPPED_TESTS = sed -n '/"kind":"testSkipped"/s/.*"text":"Test \(.*\) skipped: \\"\(.*\)\\""}\],"testID".*/  \1: \2/p' \
	$(TEST_EVENTS) | sed 's/\\"/"/g; s/\\\//\//g' | sort

test:
	@mkdir -p .build && rm -f $(TEST_EVENTS)
	@events=; if swift test --help-hidden 2>/dev/null | grep -q -e --event-stream-output-path; \
	then events="--event-stream-output-path $(TEST_EVENTS) --event-stream-version 0"; fi; \
	echo "NOTIF_SLOW_TESTS=$(SLOW_TESTS) swift test $$events"; \
	NOTIF_SLOW_TESTS=$(SLOW_TESTS) swift test $$events || status=$$?; \
	if [ -z "$$events" ]; then \
		echo 'make test: the tests skipped are marked "skipped" above (an older swift test)'; \
	elif skipped=$$($(SKIPPED_TESTS)) && [ -n "$$skipped" ]; then \
		echo "make test: $$(printf '%s\n' "$$skipped" | wc -l) tests skipped:"; \
		printf '%s\n' "$$skipped"; \
	else echo 'make test: no test skipped'; fi; \
	exit $${status:-0}

# The main job on the bundled examples: a payload becoming a record (one, whole: a record has
# every key of notif(5), null where the payload says nothing, about 1 KB), FCM and SNS messages
# becoming the same records (a few of their fields), a --check report (which finds the broken
# example on purpose and exits 1: the recipe says so, and fails on any other status), then the
# inbox grouped as Notification Center stacks it, with each group's summary. Fields are picked
# with jq where it is installed; without it (a machine with the toolchain alone), notif-show
# shows those records and groups as a person sees them. The summaries and the check read the
# example app's strings (examples/Resources: English and Russian plural forms), so that one
# message is "1 message". The debug build: two fifths of the release build's work, as fast on
# these few records, and the one `make test` and the README's examples use.
DEMO_STRINGS = --categories examples/categories.json --strings examples/Resources
DEMO_CHECK = $(DEBUG)/notif-parse --check --lint --app-name Chat $(DEMO_STRINGS) \
	examples/chat.apns examples/broken.apns examples/pushes.ndjson
# When the list was last opened: what came after it is new.
DEMO_LAST_SEEN = 2026-11-22T08:52:00Z
DEMO_SHOW = $(DEBUG)/notif-show --now $(NOW) --last-seen $(DEMO_LAST_SEEN) \
	--categories examples/categories.json --width 72
# `| $(call DEMO_PICK,FIELDS-VARIABLE)`: jq -c with the filter the variable holds, or notif-show.
DEMO_PICK = $(if $(shell command -v jq 2>/dev/null),jq -c '$($(1))',$(DEMO_SHOW))
DEMO_RECORD_FIELDS = {source, app, title, body}
DEMO_GROUP_FIELDS = {app, thread_id, count, leading: .leading.title, summary, hidden_summary}

demo: build
	@echo '== notif-parse examples/chat.apns: a payload becomes a record (every key of notif(5))'
	$(DEBUG)/notif-parse --now $(NOW) examples/chat.apns
	@echo
	@echo '== notif-parse examples/fcm-message.json examples/sns-message.json: FCM and SNS messages'
	@echo '   become the same records'
	$(DEBUG)/notif-parse --now $(NOW) examples/fcm-message.json examples/sns-message.json \
		| $(call DEMO_PICK,DEMO_RECORD_FIELDS)
	@echo
	@echo '== notif-parse --check --lint --categories examples/categories.json --strings examples/Resources examples/*'
	@echo '$(DEMO_CHECK)'
	@$(DEMO_CHECK); status=$$?; \
		echo "(exit $$status: examples/broken.apns has a trailing comma, on purpose)"; \
		[ $$status -eq 1 ]
	@echo
	@echo '== notif-parse examples/*.ndjson | notif-group --no-items | notif-summarize'
	$(DEBUG)/notif-parse --now $(NOW) examples/group-chat.ndjson examples/pushes.ndjson \
		| $(DEBUG)/notif-group --no-items \
		| $(DEBUG)/notif-summarize $(DEMO_STRINGS) \
		| $(call DEMO_PICK,DEMO_GROUP_FIELDS)
	@echo
	@echo '== ... | notif-group --item-limit 3 | notif-summarize | notif-show --to html'
	@mkdir -p .build/demo
	$(DEBUG)/notif-parse --now $(NOW) examples/group-chat.ndjson examples/pushes.ndjson \
		| $(DEBUG)/notif-group --item-limit 3 --last-seen $(DEMO_LAST_SEEN) \
		| $(DEBUG)/notif-summarize $(DEMO_STRINGS) \
		| $(DEBUG)/notif-show --to html --now $(NOW) --last-seen $(DEMO_LAST_SEEN) \
			--categories examples/categories.json > .build/demo/notifications.html
	@echo 'wrote .build/demo/notifications.html: open it in a browser'
	@echo
	@echo '== notif-parse examples/*.ndjson | notif-show: the feed as a person sees it'
	$(DEBUG)/notif-parse --now $(NOW) examples/group-chat.ndjson examples/pushes.ndjson \
		| $(DEMO_SHOW)

format:
	swift format --in-place --recursive Package.swift Sources Tests fuzz

format-lint:
	swift format lint --strict --recursive Package.swift Sources Tests fuzz

man-lint:
	scripts/lint-man.sh

completions-check:
	scripts/check-completions.sh

# The width tables (NotifText) and the characters diagnostics and notif-show write visibly
# (NotifModel) are what scripts/gen-width.py makes of the Unicode Character Database that
# Debian's unicode-data installs (make check-deps); this checks both files.
width-check:
	scripts/gen-width.py --check

# Records golden expectations from what the tools do now: every case, or the ones CASE names
# (a case, a tool, a case name or a shell pattern, several separated by commas:
# `make golden CASE=notif-group/by-app-one-group-per-app`, `CASE=notif-group`,
# `CASE='notif-*/man-example-*'`). Read `git diff` before committing. Never in CI.
golden:
	@if [ -n "$$CI" ]; then echo 'make golden rewrites expectations: not in CI' >&2; exit 2; fi
	swift build
	NOTIF_UPDATE_GOLDEN=1 NOTIF_GOLDEN_CASE='$(CASE)' swift test --filter GoldenTests
	@git status --short -- Tests/EndToEndTests/cases Tests/EndToEndTests/Fixtures

# The golden cases and the documented examples again, against the release binaries users get.
golden-release: release
	NOTIF_BIN_DIR=$(CURDIR)/$(RELEASE) swift test --filter 'GoldenTests|CorpusTests|BehaviorTests|ExamplesTests'

# The JSON engine's and the sweeps' tests and the golden cases again on the JSON reader's scalar
# path (NOTIF_JSON_SCALAR=1, notif(5)), which must read as the vector path does; the tests
# that parse through Tests/NotifJSONTests/Helpers.swift compare the two paths in every run.
scalar-test: release
	NOTIF_JSON_SCALAR=1 NOTIF_BIN_DIR=$(CURDIR)/$(RELEASE) swift test \
		--filter 'NotifJSONTests|NotifSweepTests|GoldenTests|CorpusTests|BehaviorTests|ExamplesTests'

# The suites whose code runs on worker threads (the pools, the batched sweeps, the chunked
# readers and writers, pipes read in chunks, the read-ahead) and the streaming and golden cases,
# with the tools, built with ThreadSanitizer in a folder of their own: a data race it sees stops
# the run.
# About 4 minutes.
thread-test:
	swift build --build-tests --sanitize=thread --scratch-path .build/tsan
	TSAN_OPTIONS=halt_on_error=1 NOTIF_BIN_DIR=$(CURDIR)/.build/tsan/debug \
		swift test --skip-build --scratch-path .build/tsan --filter \
		'OrderedJobs|WorkerPool|ReadAhead|Batched|Chunked|IdleTests|NotifMarkTests|Streaming|StoreFiles|GoldenTests|LeadingInFile'

# notif-show's web page in Debian's Chromium (Tests/Browser/show_page_test.py), against the
# release binaries. Without Chromium it fails; outside CI, NOTIF_SKIP_BROWSER=1 skips it loudly.
browser-test: release
	NOTIF_BIN_DIR=$(CURDIR)/$(RELEASE) python3 Tests/Browser/show_page_test.py

# The README's pictures of notif-show's pages, taken by the browser the tests use: the stacks of
# `make demo` with the records of examples/links.ndjson, of earlier days and with links, as the
# web page (light and dark, 390 and 1280 pixels wide, and a stack open) and as a mail.
SHOT_SHOW = $(DEBUG)/notif-show --now $(NOW) --categories examples/categories.json --link-key url \
	--last-seen 2026-11-22T08:30:00Z
screenshot: build
	@mkdir -p .build/demo
	{ $(DEBUG)/notif-parse --now $(NOW) examples/group-chat.ndjson examples/pushes.ndjson \
		| $(DEBUG)/notif-group --item-limit 3 | $(DEBUG)/notif-summarize $(DEMO_STRINGS) \
		&& cat examples/links.ndjson; } > .build/demo/page-input.ndjson
	$(SHOT_SHOW) --to html .build/demo/page-input.ndjson > .build/demo/page.html
	$(SHOT_SHOW) --to email .build/demo/page-input.ndjson > .build/demo/email.html
	scripts/screenshot-page.py .build/demo/page.html docs/notif-show.png
	scripts/screenshot-page.py .build/demo/page.html docs/notif-show-open.png --width 390 --open
	scripts/screenshot-page.py .build/demo/email.html docs/notif-show-email.png --width 640
	scripts/screenshot-page.py .build/demo/email.html docs/notif-show-email-dark.png \
		--width 640 --dark

# What CI runs (.ci/run): the whole test suite once (`make test` with the slow tests), the
# lints, the release binaries against the golden cases, in Chromium, split across processes,
# installed by a user and run by pre-commit, under ThreadSanitizer, a short fuzz, the
# instruction-count guards (notif-parse, notif-responses) and notif-responses on both JSON
# layouts.
check: SLOW_TESTS = run
check: build test format-lint man-lint completions-check width-check golden-release \
	scalar-test thread-test browser-test scale-test install-test hook-test fuzz-short
	bench/callgrind.sh --check-baseline
	bench/callgrind.sh --tool notif-responses --check-baseline
	bench/responses-layout.sh

# The README's "Running at scale": the GNU parallel recipes and the Spark example (local mode)
# on 100,000 records, byte for byte against one process. About 2 minutes; needs parallel,
# pyspark and Java 17 (check-deps), and fails when one is missing.
scale-test: release
	NOTIF_BIN_DIR=$(CURDIR)/$(RELEASE) scripts/test-scale.sh

# `make install` as a user who is not root, into that user's ~/.local, with the release binaries
# built here (scripts/test-install.sh): everything under PREFIX, stripped, running, its man
# pages rendering, and `make uninstall` removing all of it.
install-test: release
	scripts/test-install.sh

# The pre-commit hook of .pre-commit-hooks.yaml through `pre-commit try-repo`, the README's four
# lines that use it and its GitHub workflow's steps, on the payload examples
# (scripts/test-pre-commit-hook.sh). It builds notif-parse three times, in checkouts of its own:
# the hook twice (in pre-commit's two stores) and the workflow once, at the commit it pins.
hook-test:
	scripts/test-pre-commit-hook.sh

# pyspark 4 needs Java 17. Where pip refuses the system's Python (PEP 668), it is told not to.
check-deps:
	python3 -m pip install -q --no-deps axe-playwright-python 2>/dev/null || python3 -m pip install -q --no-deps --break-system-packages axe-playwright-python
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq mandoc man-db binutils shellcheck \
		zsh fish valgrind time unicode-data chromium chromium-driver parallel miller \
		openjdk-17-jre-headless >/dev/null
	# selenium for the browser tests (Tests/Browser/), pyspark for the Spark checks (make
	# scale-test), pre-commit for the hook's (make hook-test), jsonschema and sarif-tools for
	# the SARIF logs' (SarifTests, scripts/check-sarif.py)
	python3 -m pip install -q selenium 'pyspark>=4,<5' pre-commit jsonschema sarif-tools \
		2>/dev/null || python3 -m pip install -q --break-system-packages selenium \
		'pyspark>=4,<5' pre-commit jsonschema sarif-tools

bench: release
	bench/parse.sh
	bench/summarize.sh
	bench/group.sh
	bench/group.sh --threads 50000 200000
	bench/group.sh --threads each --no-jq 1176000
	bench/expire.sh
	bench/responses.sh
	bench/responses-layout.sh
	bench/show.sh
	bench/digest.sh
	bench/scale.sh
	bench/long-line.sh

# Every fuzz target for five minutes; a short run of each is part of `make check`.
fuzz:
	fuzz/run.sh 300

fuzz-short:
	fuzz/run.sh 10

install: release
	install -d $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man5 $(MANDIR)/man7 $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	for tool in $(TOOLS); do \
		$(INSTALL_PROGRAM) $(RELEASE)/$$tool $(BINDIR)/$$tool; \
		install -m 644 man/$$tool.1 $(MANDIR)/man1/$$tool.1; \
		install -m 644 completions/bash/$$tool $(BASHDIR)/$$tool; \
		install -m 644 completions/zsh/_$$tool $(ZSHDIR)/_$$tool; \
		install -m 644 completions/fish/$$tool.fish $(FISHDIR)/$$tool.fish; \
	done
	install -m 644 man/*.5 $(MANDIR)/man5/
	install -m 644 man/*.7 $(MANDIR)/man7/

uninstall:
	for tool in $(TOOLS); do \
		rm -f $(BINDIR)/$$tool $(MANDIR)/man1/$$tool.1 $(BASHDIR)/$$tool $(ZSHDIR)/_$$tool \
			$(FISHDIR)/$$tool.fish; \
	done
	for page in man/*.5; do rm -f $(MANDIR)/man5/$${page#man/}; done
	for page in man/*.7; do rm -f $(MANDIR)/man7/$${page#man/}; done

clean:
	rm -rf .build
