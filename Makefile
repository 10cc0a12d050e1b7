# notif: build, test, check, benchmark and install the notif-* filters.
# `make check` runs what CI runs. Every target works from a fresh clone with the Swift
# toolchain; `make check-deps` installs the Debian packages the checks use.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
# fish looks for completions in its own vendor folder (and under PREFIX only when XDG_DATA_DIRS
# names PREFIX/share), so they go where fish's pkg-config file says, else under PREFIX.
# `make install FISHDIR=...` overrides it.
FISH_VENDOR := $(shell pkg-config --variable completionsdir fish 2>/dev/null)
FISHDIR = $(DESTDIR)$(or $(FISH_VENDOR),$(PREFIX)/share/fish/vendor_completions.d)

TOOLS = $(notdir $(wildcard Sources/notif-*))
RELEASE = .build/release
NOW = 2026-11-22T09:00:00Z

.PHONY: all build release test demo check format format-lint man-lint completions-check \
	width-check golden golden-release browser-test screenshot scale-test check-deps bench fuzz \
	fuzz-short install uninstall clean

all: build

build:
	swift build

release:
	swift build -c release --static-swift-stdlib

test:
	swift test

# The main job on the bundled examples: records, a --check report (which finds the broken
# example on purpose, so its exit status 1 is expected here), then the inbox grouped as
# Notification Center stacks it, with each group's summary (picked out with jq when it is
# installed: the group objects are long).
demo: release
	@echo "== notif-parse examples/chat.apns examples/pushes.ndjson"
	$(RELEASE)/notif-parse --now $(NOW) examples/chat.apns examples/pushes.ndjson
	@echo
	@echo '== notif-parse examples/fcm-message.json examples/sns-message.json (FCM and SNS messages)'
	$(RELEASE)/notif-parse --now $(NOW) examples/fcm-message.json examples/sns-message.json
	@echo
	@echo '== notif-parse --check --lint --categories examples/categories.json examples/*'
	-$(RELEASE)/notif-parse --check --lint --app-name Chat --categories examples/categories.json \
		examples/chat.apns examples/broken.apns examples/pushes.ndjson
	@echo
	@echo '== notif-parse examples/*.ndjson | notif-group --no-items | notif-summarize'
	$(RELEASE)/notif-parse --now $(NOW) examples/group-chat.ndjson examples/pushes.ndjson \
		| $(RELEASE)/notif-group --no-items \
		| $(RELEASE)/notif-summarize --categories examples/categories.json \
		| if command -v jq >/dev/null; then \
			jq -c '{app, thread_id, count, leading: .leading.title, summary, hidden_summary}'; \
		else cat; fi
	@echo
	@echo '== ... | notif-group --limit 3 | notif-summarize | notif-show --format html'
	@mkdir -p .build/demo
	$(RELEASE)/notif-parse --now $(NOW) examples/group-chat.ndjson examples/pushes.ndjson \
		| $(RELEASE)/notif-group --limit 3 \
		| $(RELEASE)/notif-summarize --categories examples/categories.json \
		| $(RELEASE)/notif-show --format html --now $(NOW) --categories examples/categories.json \
		> .build/demo/notifications.html
	@echo 'wrote .build/demo/notifications.html: open it in a browser'
	@echo
	@echo '== notif-parse examples/*.ndjson | notif-show: the feed as a person sees it'
	$(RELEASE)/notif-parse --now $(NOW) examples/group-chat.ndjson examples/pushes.ndjson \
		| $(RELEASE)/notif-show --now $(NOW) --categories examples/categories.json --width 72

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

# notif-show's web page in Debian's Chromium (Tests/Browser/show_page_test.py), against the
# release binaries. Without Chromium it fails; outside CI, NOTIF_SKIP_BROWSER=1 skips it loudly.
browser-test: release
	NOTIF_BIN_DIR=$(CURDIR)/$(RELEASE) python3 Tests/Browser/show_page_test.py

# The README's picture of the page `make demo` writes, taken by the browser the tests use.
screenshot: demo
	scripts/screenshot-page.py .build/demo/notifications.html docs/notif-show.png

check: build test format-lint man-lint completions-check width-check golden-release \
	browser-test scale-test fuzz-short
	bench/callgrind.sh --check-baseline

# The README's "Running at scale": the GNU parallel recipes and the Spark example (local mode)
# on 100,000 records, byte for byte against one process. About 2 minutes; needs parallel,
# pyspark and Java 17 (check-deps), and fails when one is missing.
scale-test: release
	NOTIF_BIN_DIR=$(CURDIR)/$(RELEASE) scripts/test-scale.sh

# pyspark 4 needs Java 17. Where pip refuses the system's Python (PEP 668), it is told not to.
check-deps:
	python3 -m pip install -q --no-deps axe-playwright-python 2>/dev/null || python3 -m pip install -q --no-deps --break-system-packages axe-playwright-python
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq mandoc shellcheck zsh fish valgrind time \
		unicode-data chromium chromium-driver parallel openjdk-17-jre-headless >/dev/null
	# selenium for the browser tests (Tests/Browser/), pyspark for the Spark checks (make scale-test)
	python3 -m pip install -q selenium 'pyspark>=4,<5' 2>/dev/null \
		|| python3 -m pip install -q --break-system-packages selenium 'pyspark>=4,<5'

bench: release
	bench/parse.sh
	bench/summarize.sh
	bench/group.sh
	bench/expire.sh
	bench/show.sh
	bench/scale.sh
	bench/long-line.sh

# Every fuzz target for five minutes; a short run of each is part of `make check`.
fuzz:
	fuzz/run.sh 300

fuzz-short:
	fuzz/run.sh 15

install: release
	install -d $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man5 $(MANDIR)/man7 $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	for tool in $(TOOLS); do \
		install -m 755 $(RELEASE)/$$tool $(BINDIR)/$$tool; \
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
