# ab_setup.sh - sourced by the device A/B scripts (device_smallm_ab.sh, device_sm90_ab.sh):
# after `PATCH=...`, sets OUT, T0 and R=/tmp/ab (emptied; commit.txt = the host commit beside
# the patch, cand.patch), and makes /tmp/cand = this tree (without builds and .git) with the
# patch applied ("PATCH FAILED" is printed when it does not apply).
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/ab; rm -rf "$R"; mkdir -p "$R"
cp "$(dirname "$PATCH")/commit.txt" "$R/commit.txt" 2>/dev/null || git rev-parse HEAD > "$R/commit.txt"
cp "$PATCH" "$R/cand.patch"
rm -rf /tmp/cand && mkdir -p /tmp/cand && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/cand &&
  (cd /tmp/cand && patch -p1 < "$R/cand.patch") > "$R/patch.log" 2>&1 || echo "PATCH FAILED"
