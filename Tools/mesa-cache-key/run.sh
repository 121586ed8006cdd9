#!/usr/bin/env bash
# Shows Mesa's shader cache ignoring llvmpipe's vector width (see repro.c). Needs gcc and
# Debian's libegl-dev, libgles-dev and libgl1-mesa-dri. Prints the checksum of each run and
# whether it aborted; exits 0 when the shared cache made the 128-bit run fail (the bug is there).
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O1 -o "$work/repro" "$here/repro.c" -lEGL -lGLESv2 || exit 2
run() {  # width cache-folder
  MALLOC_CHECK_=3 LP_NATIVE_VECTOR_WIDTH=$1 MESA_SHADER_CACHE_DIR=$2 "$work/repro" 2>&1 | tail -1
  return "${PIPESTATUS[0]}"
}
echo "256 bits, filling a cache:       $(run 256 "$work/shared")"
echo "128 bits, a cache of its own:    $(run 128 "$work/own")"
shared=$(run 128 "$work/shared"); status=$?
echo "128 bits on the 256-bit cache:   ${shared:-no output} (exit $status)"
[ "$status" -ne 0 ]
