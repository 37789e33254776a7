#!/usr/bin/env bash
# Session 65 call 6: the full check of main after sessions 59-65 (the last was s58-check): every sm90 instance built,
# SASS, every GPU suite, memcheck / racecheck.
MIXGEMM_GIT_COMMIT=$(cat .s65/commit.txt) STAGES="build sass tests sanitize" timeout 400 bash scripts/device_check.sh
