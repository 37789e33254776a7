#!/usr/bin/env bash
# Session 90, for any card: the row split rule (core::choose_row_split, docs/design.md "Row split") re-timed on today's
# kernels. Session 54 fitted its constants before session 64 gave the 128- and 64-token tiles their exact tail box
# (a padded one launch got cheaper at M = 129..224: "re-timing it is open"). Session 54's own script and grids, unchanged:
# call 1's (Llama-2-7B, Llama-3-8B, Llama-2-70B, seed; M = 160..3136; then the slices against the CPU reference) and
# call 2's held-out grid (Llama-3-405B tp 8, Llama-2-13B, Qwen2 MLPs; M = 272..3300), each timing one launch and the
# splits at the 256- and 128-head, one s256 s128 s128 s256 one. ~6-7 min; $OUT/c1/, $OUT/c2/.
#   mkdir -p .s90 && cp bench/results/2026-12-03-h200/s54-rowsplit/rowsplit.sh .s90/ && git rev-parse HEAD > .s90/commit.txt
#   bash bench/results/2026-12-06-h200/s90-next/rowsplit90.sh      (repo root, device; carry .s90)
cd "$(dirname "$0")/../../../.."
O=${OUT:-$PWD/device-out}; T0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
OUT=$O/c1 S=.s90 timeout 400 bash .s90/rowsplit.sh
OUT=$O/c2 S=.s90 RS_SHAPES=llama3-405b RS_MS=272,336,400,464,528,600,672,736,832,960,1200,1500,1800,2200,2700,3300 \
  RS_EXTRA="--tp 8 --shape 15360x5120 --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --shape 37888x3584 --shape 3584x18944 --shape 59136x8192 --shape 8192x29568" \
  RS_NO_VERIFY=1 timeout $(( 560 - (SECONDS - T0) )) bash .s90/rowsplit.sh
echo "rowsplit90 total $((SECONDS - T0)) s"
