#!/usr/bin/env bash
# Session 101's prepared call: every f16 / s8 decode schedule on 80 SMs against the H200's picks (plan132.csv) and the
# 80-SM picks (plan80.csv). Session 102 ran it (call 1: all layers in one bench process) and found that form unusable
# (the 8-warps-per-SM schedules up to 2x slower on Llama-3-8B qkv and o); its successor runs one process per
# layer and keeps this form as ONE_PROCESS=1: ../../2026-12-07-h100/s102-allsched-green/ (command.sh, README.md).
#   BENCH=<mixgemm-bench with --green-sms> ONE_PROCESS=1 bash bench/results/2026-12-07-h100/s102-allsched-green/command.sh
exec env ONE_PROCESS=1 bash "$(dirname "$0")/../../2026-12-07-h100/s102-allsched-green/command.sh" "$@"
