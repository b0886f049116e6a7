#!/usr/bin/env bash
# The page's WebAssembly core (ports/wasm/): the lookup core answering the hint board's
# API in a browser. mmlookup embeds a built copy (lookup/src/bin/mmlookup/site/
# core.wasm) so that `mmlookup site` needs no wasm toolchain; beside it,
# core.wasm.sources records a digest of every source it was built from.
#
#   wasm-core.sh build FILE   build it (rustc for wasm32, then binaryen's wasm-opt -Oz)
#   wasm-core.sh record       build it into mmlookup's sources and record the digest
#   wasm-core.sh check        fail when the sources changed since the last record
#   wasm-core.sh fresh        fail when a fresh build differs from the recorded copy
#
# make wasm runs `record`; make test runs `check` (no toolchain needed); make
# test-devices runs `fresh`.
set -euo pipefail
cd "$(dirname "$0")/.."
SITE=lookup/src/bin/mmlookup/site
CARGO=${CARGO:-cargo}
# binaryen 108 (Debian 12) needs the features rustc's wasm32 output uses named.
WASM_OPT_FEATURES="--enable-bulk-memory --enable-sign-ext --enable-mutable-globals
  --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types"

fail() {
    echo "wasm-core: $*" >&2
    exit 1
}

# Every source the core is built from: the lookup library (not its programs), the
# wasm crate, the workspace's manifest, and the crates (versions and features) it
# resolves to for wasm32, without the paths of this checkout.
digest() {
    {
        find Cargo.toml lookup/Cargo.toml lookup/src ports/wasm/Cargo.toml ports/wasm/src -type f \
            -not -path 'lookup/src/bin/*' | LC_ALL=C sort | xargs sha256sum
        $CARGO tree --locked --offline -p mmtree-wasm -e normal --target wasm32-unknown-unknown \
            --prefix none --format '{p} {f}' | sed 's| ([/.][^)]*)||; s| (\*)||' | LC_ALL=C sort -u
    } | sha256sum | cut -d' ' -f1
}

build() {
    local out=$1
    # Paths in the module (panic locations) are named from the checkout and the
    # registry, not where they are on this machine: the same sources give the same bytes.
    local registry=${CARGO_HOME:-$HOME/.cargo}/registry/src
    local root=$PWD
    RUSTFLAGS="--remap-path-prefix=$root=mmtree --remap-path-prefix=$registry=crates" \
        $CARGO build --locked -p mmtree-wasm --profile device --target wasm32-unknown-unknown \
        --target-dir target/wasm || fail "cargo build of ports/wasm/ failed"
    # shellcheck disable=SC2086
    wasm-opt $WASM_OPT_FEATURES -Oz --strip-debug --strip-producers \
        target/wasm/wasm32-unknown-unknown/device/mmtree_wasm.wasm -o "$out" ||
        fail "wasm-opt failed"
}

case "${1:-}" in
build)
    [ $# = 2 ] || fail "usage: wasm-core.sh build FILE"
    build "$2"
    ;;
record)
    build "$SITE/core.wasm"
    {
        echo "sha256 of the sources: $(digest)"
        echo "built with: $(rustc -V); $(wasm-opt --version)"
    } >"$SITE/core.wasm.sources"
    echo "wasm-core: $SITE/core.wasm, $(wc -c <"$SITE/core.wasm") bytes"
    ;;
check)
    recorded=$(sed -n 's/^sha256 of the sources: //p' "$SITE/core.wasm.sources")
    [ "$recorded" = "$(digest)" ] ||
        fail "the lookup library or ports/wasm/ changed since $SITE/core.wasm was built: run make wasm and commit it"
    echo "wasm-core: $SITE/core.wasm is built from the current sources"
    ;;
fresh)
    build target/wasm/core.wasm
    cmp -s target/wasm/core.wasm "$SITE/core.wasm" ||
        fail "a fresh build differs from $SITE/core.wasm ($(sed -n 2p "$SITE/core.wasm.sources"); here $(rustc -V)): run make wasm and commit it"
    echo "wasm-core: a fresh build is byte-identical to $SITE/core.wasm ($(wc -c <"$SITE/core.wasm") bytes)"
    ;;
*)
    fail "usage: wasm-core.sh build FILE | record | check | fresh"
    ;;
esac
