# ab_setup.sh - sourced by the device A/B scripts (device_smallm_ab.sh, device_sm90_ab.sh):
# the common setup, and ab_check_cand (below). Setup:
# after `PATCH=...`, sets OUT, T0 and R=/tmp/ab (emptied; commit.txt = the host commit beside
# the patch, cand.patch), and makes /tmp/cand = this tree (without builds and .git) with the
# patch applied (when it does not apply: "PATCH FAILED", the patch log, exit 3).
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/ab; rm -rf "$R"; mkdir -p "$R"
cp "$(dirname "$PATCH")/commit.txt" "$R/commit.txt" 2>/dev/null || git rev-parse HEAD > "$R/commit.txt"
cp "$PATCH" "$R/cand.patch"
rm -rf /tmp/cand && mkdir -p /tmp/cand && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/cand
# A patch that does not apply would make cand the base: stop (device_sm90_multi.sh says why).
if ! (cd /tmp/cand && patch -p1 --forward < "$R/cand.patch") > "$R/patch.log" 2>&1; then
  echo "PATCH FAILED (the base tree must not contain it):"; cat "$R/patch.log"; exit 3
fi

# cand's GPU suites ($1: gtest filter, $2: timeout in s) into $R/tests-cand.log, then memcheck
# and racecheck of the sanitizer suite ($R/cand-<tool>.log); one summary line each.
ab_check_cand() {
  timeout "$2" /tmp/cand/build/tests/mixgemm_gpu_tests --gtest_filter="$1" > "$R/tests-cand.log" 2>&1
  echo "tests cand rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-cand.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
  local tool
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool /tmp/cand/build/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' \
      > "$R/cand-$tool.log" 2>&1
    echo "cand $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/cand-$tool.log" | tail -1)"
  done
}
