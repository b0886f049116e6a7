#!/usr/bin/env bash
# scripts/test-dispatch.sh (part of make test): the multisets' scan is compiled for
# several CPUs (generator/src/codes/multisets.rs, `count_shared`) and a binary picks
# one at run time, so a machine's own tests check only the build its CPU picks. This
# runs the scan's unit tests again under Debian's qemu-x86_64 (installed if missing) as
# a CPU with no AVX (Nehalem: the baseline build) and as one with AVX2 but no AVX-512
# (Haswell: the AVX2 build), and checks that each saw the features it was meant to.
set -euo pipefail

fail() {
    echo "test-dispatch: $*" >&2
    exit 1
}

if [ "$(uname -m)" != x86_64 ]; then
    echo "test-dispatch: not an x86-64 machine, where the scan has one build: nothing to run"
    exit 0
fi
"$(dirname "$0")/devices-setup.sh" qemu-user=qemu-x86_64
cargo=${CARGO:-cargo}
exe=$($cargo test -q -p mmtree-generator --lib --no-run --message-format=json |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[ -x "$exe" ] || fail "cargo built no test binary of the generator's library"
for cpu in Nehalem:false Haswell:true; do
    name=${cpu%%:*} avx2=${cpu#*:}
    out=$(qemu-x86_64 -cpu "$name" "$exe" codes::multisets --nocapture 2>&1) ||
        fail "the scan's tests failed as a $name CPU: $out"
    grep -q "count_shared: avx2 $avx2, avx512vpopcntdq false" <<<"$out" ||
        fail "as a $name CPU the tests did not see avx2 $avx2 and no AVX-512: $out"
    grep -q "test result: ok. [1-9]" <<<"$out" || fail "no test of the scan ran as a $name CPU: $out"
    echo "test-dispatch: the scan's tests pass as a $name CPU (avx2 $avx2, no AVX-512)"
done
