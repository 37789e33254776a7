# Sourced by session 91's device scripts (refs91.sh, allsched91.sh, hotl2.sh; repo root, device, carry .s91): the shell
# options, $OUT (with raw/), t0, and B / C = the carried bench with Marlin and QQQ and the commit it was built from.
# The bench is carried xz-compressed (the 64 MiB carry cap); python3's lzma unpacks it once.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT/raw"
t0=$SECONDS
[ -x ./.s91/bench-ref ] || { python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' .s91/bench-ref.xz .s91/bench-ref && chmod +x .s91/bench-ref; }
B=./.s91/bench-ref
C=$(cat .s91/commit.txt)
