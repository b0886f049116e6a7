#!/usr/bin/env bash
# Installs what the device targets need when it is missing (make firmware, make avr,
# make wasm, make test-devices): Rust's Cortex-M and wasm32 targets (rustup) and
# Debian's QEMU, ARM binutils, avr-gcc, avr-libc, simavr and binaryen (wasm-opt). Fails with a message when an install
# cannot be done; never skips in silence. With arguments PACKAGE=FILE..., only those
# packages (each installed unless FILE, a path or a command, is there) and no Rust
# target: scripts/test-dispatch.sh asks for qemu-user=qemu-x86_64 alone.
set -euo pipefail

fail() {
    echo "devices-setup: $*" >&2
    exit 1
}

targets=()
[ $# -gt 0 ] || for target in thumbv6m-none-eabi thumbv7m-none-eabi wasm32-unknown-unknown; do
    rustc --print sysroot >/dev/null 2>&1 || fail "rustc is not on PATH"
    if [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target" ]; then
        targets+=("$target")
    fi
done
if [ ${#targets[@]} -gt 0 ]; then
    command -v rustup >/dev/null || fail "Rust targets ${targets[*]} are missing and rustup is not there to add them"
    echo "devices-setup: rustup target add ${targets[*]}"
    rustup target add "${targets[@]}" || fail "rustup target add ${targets[*]} failed"
fi

# Debian packages, each with a file that shows it is installed.
packages=()
need() {
    if [ ! -e "$2" ] && ! command -v "$2" >/dev/null 2>&1; then
        packages+=("$1")
    fi
}
if [ $# -gt 0 ]; then
    for wanted in "$@"; do
        need "${wanted%%=*}" "${wanted#*=}"
    done
else
    need qemu-system-arm qemu-system-arm
    need binutils-arm-none-eabi arm-none-eabi-size
    need gcc-avr avr-g++
    need avr-libc /usr/lib/avr/include/avr/io.h
    need simavr simavr
    need binaryen wasm-opt
fi
if [ ${#packages[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || fail "missing ${packages[*]}, and apt-get is not there to install them (install them by hand)"
    [ "$(id -u)" = 0 ] || fail "missing ${packages[*]}: run as root, or sudo apt-get install --no-install-recommends ${packages[*]}"
    case " ${packages[*]} " in
        *" qemu-system-arm "*) echo "devices-setup: note: Debian's qemu-system-arm can replace a newer qemu-utils on some machines" ;;
    esac
    echo "devices-setup: apt-get install --no-install-recommends ${packages[*]}"
    apt-get update -qq || fail "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null ||
        fail "apt-get install ${packages[*]} failed"
fi
