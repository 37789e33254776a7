#!/usr/bin/env bash
# Session 58 call 1: the full check of main after the paired stages (kPair) merge: every sm90 instance built
# (bf16 / W8A16 narrow tiles with kPair for the first time), SASS, every GPU suite, memcheck / racecheck.
MIXGEMM_GIT_COMMIT=$(cat .s58/commit.txt) STAGES="build sass tests sanitize" timeout 560 bash scripts/device_check.sh
