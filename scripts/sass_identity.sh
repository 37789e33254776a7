#!/usr/bin/env bash
# Checks, without a GPU, that the working tree compiles every device translation unit to the same
# SASS as a base revision: the proof a refactor (files split, code moved, names changed) changed no
# kernel. For each tree it configures a full build (every generated sm90 instance, no compile),
# runs scripts/local_sass.sh on the generated instances and src/kernels/*/*.cu, and compares the
# cuobjdump listings and ptxas's register / spill lines file by file.
#   usage: scripts/sass_identity.sh BASE_REV [extra nvcc flags, e.g. -DMIXGEMM_SM90_TRACE]
# Prints one line per file that differs, then a summary; exit status 1 if any differs. Takes ~10
# minutes on 2 cores (two trees of ~40 files; set JOBS to run more compiles at once). Work folder:
# ${SASS_IDENTITY_DIR:-/tmp/sass-identity}.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: scripts/sass_identity.sh BASE_REV [nvcc flags]}
shift
JOBS=${JOBS:-2}
W=${SASS_IDENTITY_DIR:-/tmp/sass-identity}
rm -rf "$W"
mkdir -p "$W"
git worktree add -q --detach "$W/base-tree" "$BASE"
trap 'git worktree remove --force "$W/base-tree" >/dev/null 2>&1 || true' EXIT
# local_sass.sh fetches cuobjdump / nvdisasm into .deps/ once; the base tree shares this tree's.
scripts/local_sass.sh /dev/null >/dev/null 2>&1 || true
mkdir -p "$W/base-tree/.deps" && cp -r .deps/cuda-sass-tools "$W/base-tree/.deps/"

dump() {  # dump TREE OUT: SASS of every device TU of TREE into OUT
  local tree=$1 out=$2
  shift 2
  mkdir -p "$out"
  cmake -S "$tree" -B "$out/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/cmake.log" 2>&1
  (cd "$tree" && { ls "$out"/build/generated/*.cu; ls src/kernels/*/*.cu; }) |
    EXTRA="$*" xargs -P "$JOBS" -I{} bash -c '
      f={}; b=$(basename "$f" .cu)
      cd "'"$tree"'" && scripts/local_sass.sh "$f" $EXTRA >"'"$out"'/$b.sass" 2>"'"$out"'/$b.err" || true'
}
dump "$W/base-tree" "$W/base" "$@"
dump "$PWD" "$W/new" "$@"

status=0
n=0
# The kernels' listings only (a host-only TU has none, and its fatbin header may differ), and the
# ptxas lines; the hash in an anonymous namespace's mangled name depends on the file's path.
norm_sass() { sed -n '/Function :/,$p' "$1" | sed -E 's/_GLOBAL__N__[0-9a-f]+_/_GLOBAL__N__#_/g'; }
norm_err() { grep -E "ptxas|spill|Used|C751" "$1" | sed -E 's/_GLOBAL__N__[0-9a-f]+_/_GLOBAL__N__#_/g' || true; }
for f in "$W"/base/*.sass; do
  b=$(basename "$f" .sass)
  n=$((n + 1))
  if [ ! -f "$W/new/$b.sass" ]; then echo "only in $BASE: $b"; status=1; continue; fi
  cmp -s <(norm_sass "$f") <(norm_sass "$W/new/$b.sass") || { echo "SASS differs: $b"; status=1; }
  cmp -s <(norm_err "$W/base/$b.err") <(norm_err "$W/new/$b.err") || { echo "ptxas lines differ: $b"; status=1; }
done
for f in "$W"/new/*.sass; do
  [ -f "$W/base/$(basename "$f")" ] || { echo "only in the working tree: $(basename "$f")"; status=1; }
done
echo "$n translation units compared against $BASE: $([ $status = 0 ] && echo identical || echo DIFFERENT)"
exit $status
