# The front door: `make demo` and `make test` do all set-up on a fresh machine that
# has the Rust toolchain. CI runs `make test` (see .ci/run).

CARGO ?= cargo
# Where cargo puts what it builds: target/, or CARGO_TARGET_DIR (or a target-dir in a
# cargo config) when set. Asked of cargo itself, so every way of moving it works.
TARGET_DIR := $(shell $(CARGO) metadata --format-version 1 --no-deps 2>/dev/null | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
ifeq ($(TARGET_DIR),)
TARGET_DIR := target
endif
REL := $(TARGET_DIR)/release
# `make install` puts mmgen, mmlookup and mmcheck in $(PREFIX)/bin (cargo's default: ~/.cargo/bin).
PREFIX ?=
# `make man` writes the manual pages here.
MANDIR ?= $(TARGET_DIR)/man
# Trees shipped in trees/: file name and mmgen arguments. optimal-4x12.mmt and
# optimal-5x8.mmt are merged from their campaigns' items kept in campaigns/ (their
# top certificates, campaigns/NAME/optimal-NAME.mmc, are the same merges').
TREES := knuth-4x6.mmt:--pegs=4:--colors=6:--strategy=knuth \
	expected-size-4x6.mmt:--pegs=4:--colors=6:--strategy=expected-size \
	entropy-4x6.mmt:--pegs=4:--colors=6:--strategy=entropy \
	most-parts-4x6.mmt:--pegs=4:--colors=6:--strategy=most-parts \
	consistent-4x6.mmt:--pegs=4:--colors=6:--strategy=consistent \
	optimal-4x6.mmt:--pegs=4:--colors=6:--strategy=optimal \
	optimal-depth5-4x6.mmt:--pegs=4:--colors=6:--strategy=optimal:--max-depth=5 \
	optimal-4x6-no-repeat.mmt:--pegs=4:--colors=6:--no-repeat:--strategy=optimal \
	optimal-4x10-no-repeat.mmt:--pegs=4:--colors=10:--no-repeat:--strategy=optimal \
	optimal-4x8.mmt:--pegs=4:--colors=8:--strategy=optimal \
	optimal-depth6-4x8.mmt:--pegs=4:--colors=8:--strategy=optimal:--max-depth=6 \
	optimal-5x6.mmt:--pegs=5:--colors=6:--strategy=optimal \
	optimal-worst-5x6.mmt:--pegs=5:--colors=6:--strategy=optimal:--objective=worst \
	optimal-4x9.mmt:--pegs=4:--colors=9:--strategy=optimal \
	optimal-4x10.mmt:--pegs=4:--colors=10:--strategy=optimal \
	optimal-worst-4x10.mmt:--pegs=4:--colors=10:--strategy=optimal:--objective=worst \
	knuth-5x8.mmt:--pegs=5:--colors=8:--strategy=knuth \
	entropy-5x8.mmt:--pegs=5:--colors=8:--strategy=entropy \
	entropy-exact250-5x8.mmt:--pegs=5:--colors=8:--strategy=entropy:--exact-below=250 \
	entropy-exact500-5x8.mmt:--pegs=5:--colors=8:--strategy=entropy:--exact-below=500 \
	entropy-exact500-6x6.mmt:--pegs=6:--colors=6:--strategy=entropy:--exact-below=500 \
	entropy-rollout500-6x6.mmt:--pegs=6:--colors=6:--strategy=entropy:--first=112233:--exact-below=500:--rollout-above=500:--rollout-width=64 \
	optimal-4x12.mmt:merge:--dir=campaigns/4x12 \
	optimal-5x8.mmt:merge:--dir=campaigns/5x8

# Shipped trees whose proof certificate ships beside them (trees/NAME.mmc): the
# small ones. The others' certificates are written by `make verify-proofs`.
CERTIFIED := optimal-4x6.mmt optimal-depth5-4x6.mmt optimal-4x6-no-repeat.mmt \
	optimal-4x10-no-repeat.mmt optimal-4x8.mmt optimal-depth6-4x8.mmt

.PHONY: build test test-cluster verify-proofs lint demo trees bench bench-large fuzz toolchain clean install man screenshots python test-python \
	devices-setup firmware firmware-run avr avr-header wasm site test-devices bench-devices bench-estimates results campaign keep recheck

FUZZ_SECONDS ?= 600

build:
	$(CARGO) build --release --workspace

# rustfmt and clippy ship with rustup's default profile; add them if missing.
toolchain:
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

test: toolchain
	$(CARGO) build --workspace --bins
	$(CARGO) test --workspace
	# The core alone, without std (no_std, no allocator), and the device crate on it.
	$(CARGO) build -p mmtree-lookup --no-default-features
	$(CARGO) test -p mmtree-lookup --no-default-features
	$(CARGO) test -p mmtree-device
	$(CARGO) run -q -p mmtree-tests --bin mmtree-report -- trees --check
	# The multisets' scan's builds for CPUs other than this one, under qemu-x86_64.
	CARGO=$(CARGO) scripts/test-dispatch.sh
	# The page's WebAssembly core that mmlookup embeds is built from today's sources.
	scripts/wasm-core.sh check
	$(MAKE) lint
	$(MAKE) test-python

# The Python package (ports/python/): a venv with maturin and pytest from PyPI, the
# abi3 wheel built (one wheel for CPython 3.9 on) and installed into it. Its
# tests check it against mmlookup and mmgen (the debug builds `make test` made).
VENV := $(TARGET_DIR)/venv
$(VENV)/bin/maturin:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q "maturin>=1.8,<2" "pytest>=8"

python: toolchain $(VENV)/bin/maturin
	rm -rf $(TARGET_DIR)/wheels
	cd ports/python && CARGO_TARGET_DIR=$(abspath $(TARGET_DIR))/python $(abspath $(VENV))/bin/maturin build --release -q -o $(abspath $(TARGET_DIR))/wheels
	$(VENV)/bin/pip install -q --force-reinstall --no-deps $(TARGET_DIR)/wheels/mmtree-*.whl
	@echo "python: installed into $(VENV); try $(VENV)/bin/python -c 'import mmtree; print(mmtree.Tree(\"trees/optimal-5x7.mmt\").next())'"

test-python: python
	$(CARGO) build --workspace --bins
	MMTREE_BIN=$(abspath $(TARGET_DIR))/debug $(VENV)/bin/pytest -q ports/python/tests
	cd ports/python && CARGO_TARGET_DIR=$(abspath $(TARGET_DIR))/python $(CARGO) clippy -q -- -D warnings
	cd ports/python && $(CARGO) fmt --check

# Every proven row of RESULTS.md: its certificate written and checked by mmcheck, with
# sizes and times (hours; a row done is not redone, a long one resumes from its
# checkpoint). PROOFS="4x7 5x6" for some rows (names in scripts/verify-proofs.sh).
PROOFS ?=
verify-proofs: build
	scripts/verify-proofs.sh $(REL) $(TARGET_DIR)/proofs $(PROOFS)

# A long proof kept in campaigns/NAME as a plan's items, gone on with across sessions on
# machines that keep nothing: WORK holds the parts (certificates) while they are checked;
# items and the ledger of checked parts come back to campaigns/NAME, to be committed.
# FIRST="6 5" takes those items before the rest (begun ones still come first). Splits
# of NAME's items (campaigns/NAME/within-INDEX) are worked on too, before NAME's own.
# On a cluster, LAUNCH="srun --ntasks=1 --cpus-per-task=1 --mem=8G --quiet" runs each
# search and check as a Slurm job (JOBS at once; WORK and the build on shared disk).
# FILL=trees/entropy-exact500-5x8.mmt (else campaigns/NAME/known.mmt, if there is one)
# keeps WORK/NAME/known.mmt, the items done in that tree's places, whose total lowers
# the budgets of the first guesses still open. AGAIN="41 49" solves those items of
# NAME again first, for all of their guesses' gaps (items shown dearer by their shares
# only, whose guesses' big classes are not done: mmgen solve-class --again).
NAME ?= 4x12
WORK ?= $(TARGET_DIR)/campaigns
JOBS ?= 2
MIB ?= 6144
FIRST ?=
FILL ?=
AGAIN ?=
campaign: build
	LAUNCH="$(LAUNCH)" FILL="$(FILL)" AGAIN="$(AGAIN)" scripts/campaign.sh $(NAME) $(WORK) $(JOBS) $(MIB) $(REL) "$(FIRST)"

# A spot check of a finished campaign's ledger by a reader who does not trust it:
# COUNT items drawn at random from SEED (pick your own), of those that took UNDER
# seconds or less, each solved again in a copy under the budget that gives what it
# recorded, its new part checked by mmcheck and what it proves compared with the
# record (mmtree-report recheck; README: Check a proof yourself).
COUNT ?= 20
SEED ?= 1
UNDER ?= 10
recheck: build
	$(REL)/mmtree-report recheck campaigns/$(NAME) --count $(COUNT) --seed $(SEED) --under $(UNDER)

# Commits what a running campaign copied back (NAME's board's folder in campaigns/),
# unless a tree `make trees` merges from it would change: then it says so, and the
# items wait, staged, for `make trees` and the figures of README.md and RESULTS.md.
keep: build
	scripts/keep-campaign.sh $(NAME) $(REL)

# A plan run through a real one-node Slurm on localhost (installed from Debian's
# packages when missing; every daemon it starts is stopped). CI runs it after make test.
test-cluster: build
	scripts/test-cluster.sh $(REL)

# Trees on chips (README: On a device). Each target installs what is missing first
# (Rust's Cortex-M targets, Debian's QEMU, ARM binutils, avr-gcc, avr-libc, simavr)
# and fails with a message when it cannot.
devices-setup:
	@scripts/devices-setup.sh

# The Cortex-M firmware for both chips, with the tree MMTREE_TREE (a path from here; default: the
# classic Knuth tree). Run it: cd ports/firmware && cargo run --release --target T. Source
# paths (in panic messages) are named from the checkout's root, so the image's size
# does not depend on where the checkout is.
FIRMWARE_TARGETS := thumbv6m-none-eabi thumbv7m-none-eabi
firmware: devices-setup
	@for t in $(FIRMWARE_TARGETS); do \
	  rm -f $(TARGET_DIR)/firmware/$$t/release/mmtree-firmware; \
	  (cd ports/firmware && RUSTFLAGS="--remap-path-prefix=$(CURDIR)=mmtree" \
	    $(CARGO) build --release --target $$t --target-dir $(abspath $(TARGET_DIR))/firmware) || exit 1; \
	  arm-none-eabi-size $(TARGET_DIR)/firmware/$$t/release/mmtree-firmware; \
	done

# The images `make firmware` built and sized, run under QEMU (cargo run with the same
# flags, so nothing is rebuilt): each plays every secret and exits 0, or 1 on a mismatch.
firmware-run: firmware
	@for t in $(FIRMWARE_TARGETS); do \
	  (cd ports/firmware && RUSTFLAGS="--remap-path-prefix=$(CURDIR)=mmtree" \
	    $(CARGO) run --quiet --release --target $$t --target-dir $(abspath $(TARGET_DIR))/firmware) || exit 1; \
	done

# The Arduino sketch in ports/arduino/mmtree for the ATmega328P (Arduino Uno), built as the
# Arduino IDE does but with avr-g++ alone: target/avr/mmtree.elf and .hex (upload it
# with avrdude -p m328p -c arduino -P PORT -U flash:w:target/avr/mmtree.hex).
# A tree too big for an Uno is refused in one line (scripts/avr-build.sh).
AVR_DIR := $(TARGET_DIR)/avr
avr: devices-setup
	scripts/avr-build.sh ports/arduino/mmtree $(AVR_DIR)

# The sketch's tree, exported again (make test-devices checks it is current).
avr-header: build
	$(REL)/mmlookup export trees/knuth-4x6.mmt --format c > ports/arduino/mmtree/mmtree_tree.h

# The page's lookup core as WebAssembly (ports/wasm/), rebuilt into mmlookup's sources
# (lookup/src/bin/mmlookup/site/core.wasm) with a digest of what it was built from:
# run it after changing the lookup library, and commit both files.
wasm: devices-setup
	scripts/wasm-core.sh record

# The hint board with no server, for every tree in trees/: open
# $(TARGET_DIR)/site/index.html in a browser, or copy the folder to any static host.
site: build
	$(REL)/mmlookup site --out $(TARGET_DIR)/site $(foreach t,$(TREES),--tree trees/$(firstword $(subst :, ,$(t))))

# Both Cortex-M chips and the AVR play every secret of their trees under emulation,
# checked against the trees' headers, with sizes and limits; the page's core is
# rebuilt and must equal the copy mmlookup embeds, and is timed in Chromium (CI
# runs it after make test).
test-devices: build firmware avr
	scripts/wasm-core.sh fresh
	$(REL)/mmtree-report devices

# The same, writing the chips' table into BENCHMARKS.md.
bench-devices: build firmware avr
	scripts/wasm-core.sh fresh
	$(REL)/mmtree-report devices --write

lint: toolchain
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -p mmtree-lookup --no-default-features --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --quiet

demo: build
	@scripts/demo.sh $(REL) 3632

# The two programs, built in release mode, into $(PREFIX)/bin or ~/.cargo/bin; their
# manual pages and bash, zsh and fish completions under $(PREFIX)/share (or
# ~/.local/share when PREFIX is not given), generated from the installed programs.
SHARE = $(if $(PREFIX),$(PREFIX),$(HOME)/.local)/share
BIN = $(if $(PREFIX),$(PREFIX),$(HOME)/.cargo)/bin
install:
	$(CARGO) install --locked --path lookup $(if $(PREFIX),--root $(PREFIX))
	$(CARGO) install --locked --path generator $(if $(PREFIX),--root $(PREFIX))
	$(CARGO) install --locked --path checker $(if $(PREFIX),--root $(PREFIX))
	@mkdir -p $(SHARE)/man/man1 $(SHARE)/bash-completion/completions \
	  $(SHARE)/zsh/site-functions $(SHARE)/fish/vendor_completions.d
	@for prog in mmlookup mmgen; do \
	  $(BIN)/$$prog man > $(SHARE)/man/man1/$$prog.1 || exit 1; \
	  for sub in $$($(BIN)/$$prog man --list); do \
	    $(BIN)/$$prog man $$sub > $(SHARE)/man/man1/$$prog-$$sub.1 || exit 1; \
	  done; \
	  $(BIN)/$$prog completions bash > $(SHARE)/bash-completion/completions/$$prog || exit 1; \
	  $(BIN)/$$prog completions zsh > $(SHARE)/zsh/site-functions/_$$prog || exit 1; \
	  $(BIN)/$$prog completions fish > $(SHARE)/fish/vendor_completions.d/$$prog.fish || exit 1; \
	done
	@echo "installed mmlookup, mmgen and mmcheck in $(BIN); manual pages in $(SHARE)/man/man1 (man mmlookup), completions in $(SHARE)"

# Manual pages (roff) for both programs and each of their subcommands, from their
# own option definitions: `man $(MANDIR)/mmlookup.1`.
man: build
	@mkdir -p $(MANDIR)
	@for prog in mmlookup mmgen; do \
	  $(REL)/$$prog man > $(MANDIR)/$$prog.1 || exit 1; \
	  for sub in $$($(REL)/$$prog man --list); do \
	    $(REL)/$$prog man $$sub > $(MANDIR)/$$prog-$$sub.1 || exit 1; \
	  done; \
	done
	@echo "wrote $(MANDIR)/*.1"

trees: build
	@for spec in $(TREES); do \
	  file=$${spec%%:*}; args=$$(echo $${spec#*:} | tr ':=' '  '); \
	  case " $(CERTIFIED) " in *" $$file "*) args="$$args --certificate trees/$${file%.mmt}.mmc";; esac; \
	  echo "mmgen $$args --out trees/$$file"; \
	  $(REL)/mmgen $$args --out trees/$$file >/dev/null || exit 1; \
	done
	$(CARGO) build --release --workspace
	$(REL)/mmtree-report trees

bench: build
	$(CARGO) bench -p mmtree-lookup --bench next
	$(CARGO) build -p mmtree-device --profile device --bins
	$(REL)/mmtree-report bench
	@echo "wrote BENCHMARKS.md"

# Reruns one row of RESULTS.md, ROW="its ARGS" (e.g. ROW="--pegs 4 --colors 7
# --strategy optimal --threads 1"), checks the tree is the row's and rewrites the
# row's time, positions searched and peak memory.
results: build
	$(REL)/mmtree-report results "$(ROW)"

# mmgen --estimate against the runs it estimates, into BENCHMARKS.md.
bench-estimates: build
	$(REL)/mmtree-report estimates --write

# The hint board's pictures in docs/ (README shows them), taken by the browser test
# (headless chromium, installed when missing), and the strategies' chart.
screenshots: build
	$(CARGO) build --workspace --bins
	MMTREE_SCREENSHOTS=$(CURDIR)/docs $(CARGO) test -p mmtree-tests --test browser
	$(REL)/mmgen compare --pegs 4 --colors 6 --plot docs/compare-4x6.svg

# The large boards (6x9, 7x7: tens of minutes), into their own section.
# ONLY="--pegs 7 --colors 7 --strategy knuth" measures that case again, keeping the other rows.
bench-large: build
	$(REL)/mmtree-report bench --large $(if $(ONLY),"$(ONLY)")

# The reader against arbitrary bytes (see tests/fuzz/README.md).
fuzz:
	@command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked
	mkdir -p tests/fuzz/corpus/tree_bytes && cp trees/*.mmt tests/fuzz/corpus/tree_bytes/
	cd tests/fuzz && RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run -s none tree_bytes -- -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1

clean:
	$(CARGO) clean
