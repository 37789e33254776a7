#!/usr/bin/env bash
# session 44 call 1: s43-next call-ab (3-way A/B at picks + suites + sanitizers), then call-sched on the directb tree
set -u
T0=$SECONDS
timeout 330 bash bench/results/2026-12-02-h200/s43-next/call-ab.sh .s44/e4m3-tables.patch .s44/e4m3-tables-directb.patch > $OUT/ab.log 2>&1
echo "ab rc=$? at $((SECONDS-T0)) s"
patch -p1 < .s44/e4m3-tables-directb.patch > /dev/null && echo patched
timeout $((575 - (SECONDS-T0))) bash bench/results/2026-12-02-h200/s43-next/call-sched.sh > $OUT/sched.log 2>&1
echo "sched rc=$? at $((SECONDS-T0)) s"
echo "=== AB tail"; tail -45 $OUT/ab.log
echo "=== SCHED tail"; tail -40 $OUT/sched.log
