#!/usr/bin/env bash
# make avr: builds the Arduino sketch in SKETCH (ports/arduino/mmtree) for the ATmega328P
# of an Arduino Uno with avr-g++ alone, as the Arduino IDE does, into OUT/mmtree.elf
# and OUT/mmtree.hex. A tree that does not fit an Uno is refused in one line, before
# the compiler when its size alone says so, and nothing is left in OUT to flash: an
# Uno leaves 32,256 bytes of its 32 KiB of flash to a sketch (its bootloader keeps
# 512) and has 2,048 bytes of RAM.
#
# Usage: scripts/avr-build.sh SKETCH OUT
set -euo pipefail
sketch=$1
out=$2
FLASH=32256
RAM=2048
# The sketch's own code and texts besides the tree: 3,229 bytes with the classic
# tree (avr-size: 9,592 bytes of flash, 6,363 of them the tree), a little more with
# wider tables; the margin keeps the early refusal on the safe side.
CODE=3328
FLAGS=(-mmcu=atmega328p -DF_CPU=16000000UL -Os -Wall -Wextra -Werror
  -ffunction-sections -fdata-sections -Wl,--gc-sections)

fail() { echo "make avr: $*" >&2; exit 1; }

mkdir -p "$out"
rm -f "$out/mmtree.elf" "$out/mmtree.hex"
header="$sketch/mmtree_tree.h"
tree=$(sed -n 's/^static const uint8_t mmtree\[\([0-9]*\)\].*/\1/p' "$header" 2>/dev/null || true)
[ -n "$tree" ] || fail "$header holds no tree (mmlookup export FILE --format c > $header writes one)"
if [ "$tree" -gt $((FLASH - CODE)) ]; then
  fail "the tree is $tree bytes; an Arduino Uno has $FLASH bytes of flash for a sketch and the sketch's code takes about $CODE of them: the largest tree that fits is $((FLASH - CODE)) bytes"
fi
here=$(cd "$(dirname "$0")/.." && pwd)
avr-g++ "${FLAGS[@]}" -x c++ "$sketch/mmtree.ino" "$here/ports/arduino/main.cpp" -o "$out/mmtree.elf"
read -r text data bss _ < <(avr-size "$out/mmtree.elf" | tail -n 1)
flash=$((text + data))
statics=$((data + bss))
if [ "$flash" -gt "$FLASH" ]; then
  rm -f "$out/mmtree.elf"
  fail "the sketch with this tree ($tree bytes) needs $flash bytes of flash; an Arduino Uno has $FLASH for a sketch: export a smaller tree"
fi
if [ "$statics" -gt $((RAM / 2)) ]; then
  rm -f "$out/mmtree.elf"
  fail "the sketch needs $statics bytes of RAM for its statics, over half the Uno's $RAM (the stack needs the rest)"
fi
avr-objcopy -O ihex -R .eeprom "$out/mmtree.elf" "$out/mmtree.hex"
echo "make avr: ATmega328P (Arduino Uno): a $tree-byte tree, $flash of $FLASH bytes of flash, $statics of $RAM bytes of RAM for statics; $out/mmtree.hex"
