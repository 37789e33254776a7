#!/usr/bin/env bash
# Session 72: two A/Bs in one call, CUDA graphs (32 launches per replay, cold L2, 30 replays), pairs X1 / Y1 / Y2 / X2:
#  (1) the 128 x 256 tile's AWQ kernel alone (awq = -DMIXGEMM_SM90_AWQ_KERNEL=1) against the default build (base),
#      f16 / bf16 u4 g128 (scales + zero points) at M = 256..2048 (s71-awq's question);
#  (2) the unit form on top of it (awquf = awq + -DMIXGEMM_SMALLM_UNIT_FORM=1 -DMIXGEMM_SM90_UNIT_FORM=1) against awq,
#      on the weights the unit form was not yet timed on alone: u4 + zero points (f16 / bf16) and 8-bit (f16 u8b128,
#      u8 + zeros), M = 1..1024 at the heuristic's picks (smallm at M <= 16, sm90 above);
#  then --verify of both candidate builds. llama3-8b + seed + llama2-70b. Outputs $OUT/s72.tar.gz, geomeans last.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/s72; mkdir -p "$W"
t0=$SECONDS; DEADLINE=${DEADLINE:-575}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
CF=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,f16.u8 -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_BUILD_TESTS=OFF
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk")
build() {  # $1 dir, $2 cuda flags
  local bl; bl=$(left 190)
  ( cmake -S . -B "$1" "${CF[@]}" ${2:+"-DCMAKE_CUDA_FLAGS=$2"} && timeout "$bl" cmake --build "$1" -j 16 --target mixgemm-bench ) > "$W/$1.log" 2>&1
  echo "$1 rc=$? at $((SECONDS - t0)) s"
}
[ -x build-base/tools/mixgemm-bench ] || build build-base "" &
[ -x build-awq/tools/mixgemm-bench ] || build build-awq "-DMIXGEMM_SM90_AWQ_KERNEL=1" &
[ -x build-awquf/tools/mixgemm-bench ] || build build-awquf "-DMIXGEMM_SM90_AWQ_KERNEL=1 -DMIXGEMM_SMALLM_UNIT_FORM=1 -DMIXGEMM_SM90_UNIT_FORM=1" &
wait; echo "builds done at $((SECONDS - t0)) s"
grep -h "spill" "$W"/build-*.log | grep -v " 0 bytes spill" | sort | uniq -c | head -5
G=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$COMMIT" --shapes llama3-8b,seed,llama2-70b
   --iters 30 --warmup 3 --graph-batch 32)
run() {  # $1 build, $2 stem, rest: flags
  local b=$1 s=$2; shift 2; local lim; lim=$(left 30); [ "$lim" -gt 120 ] && lim=120
  timeout "$lim" "$b/tools/mixgemm-bench" "$@" --csv "$W/$s.csv" > "$W/$s.txt" 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
A1=(--types f16.u4.g128,bf16.u4.g128 --m 256,512,1024,2048)
run build-base a-base1 "${G[@]}" "${A1[@]}"; run build-awq a-awq1 "${G[@]}" "${A1[@]}"
run build-awq a-awq2 "${G[@]}" "${A1[@]}"; run build-base a-base2 "${G[@]}" "${A1[@]}"
A2=(--types f16.u4.g128,bf16.u4.g128,f16.u8b128.g128,f16.u8.g128 --m 1,16,64,128,256,1024)
run build-awq u-awq1 "${G[@]}" "${A2[@]}"; run build-awquf u-uf1 "${G[@]}" "${A2[@]}"
run build-awquf u-uf2 "${G[@]}" "${A2[@]}"; run build-awq u-awq2 "${G[@]}" "${A2[@]}"
V=(--no-baselines --quiet --shapes llama3-8b,seed --iters 3 --warmup 1 --verify)
run build-awq verify-awq "${V[@]}" "${A1[@]}"
run build-awquf verify-uf "${V[@]}" "${A2[@]}"
python3 - "$W" <<'PY' | tee "$W/summary.txt"
import csv, sys, os, math, collections
W = sys.argv[1]
def load(s):
    p = os.path.join(W, s + '.csv')
    if not os.path.exists(p): return {}
    return {(r['shape'], r['type_spec'], r['M']): (float(r['us_median']), r['schedule'])
            for r in csv.DictReader(open(p)) if r['kernel'] == 'mixgemm' and r['status'] == 'ok'}
for name, pairs in (('awq/base', (('a-base1', 'a-awq1'), ('a-base2', 'a-awq2'))),
                    ('uf/awq', (('u-awq1', 'u-uf1'), ('u-awq2', 'u-uf2'))),
                    ('A/A base', (('a-base1', 'a-base2'),)), ('A/A awq', (('u-awq1', 'u-awq2'),))):
    R, fam = collections.defaultdict(list), {}
    for b, c in pairs:
        B, C = load(b), load(c)
        for k in B:
            if k in C:
                R[(k[1], int(k[2]))].append(math.log(C[k][0] / B[k][0])); fam[(k[1], int(k[2]))] = C[k][1][:12]
    for (t, m), l in sorted(R.items()):
        print(f'{name:9s} {t:16s} M={m:<5d} {fam[(t, m)]:12s} geomean {math.exp(sum(l) / len(l)):.4f} '
              f'(min {math.exp(min(l)):.3f}, max {math.exp(max(l)):.3f}) over {len(l)}')
for v in ('verify-awq', 'verify-uf'):
    p = os.path.join(W, v + '.csv')
    if os.path.exists(p):
        print(v, dict(collections.Counter((r['schedule'][:10], r['status'], r['verify'])
                                          for r in csv.DictReader(open(p)) if r['kernel'] == 'mixgemm')))
PY
cd "$W" && tar czf "$OUT/s72.tar.gz" ./*.csv ./*.txt ./*.log 2>/dev/null
echo "total $((SECONDS - t0)) s"
