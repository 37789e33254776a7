#!/usr/bin/env bash
# Session 91: the full GPU check of today's tree (../s87-next/check_fuzz.sh: every sm90 instance built, every GPU suite,
# memcheck / racecheck of the *Sanitize* tests, GemmFuzz wide + under memcheck, pytest) on whichever card comes; on an
# H200 it is the queue's item 5 (the last H200 check is session 73's).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s91-next/check91.sh      (repo root, device; ~9 min)
cd "$(dirname "$0")/../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 > "${OUT:-$PWD/device-out}/gpu.txt" 2>/dev/null
exec bash bench/results/2026-12-06-h200/s87-next/check_fuzz.sh
