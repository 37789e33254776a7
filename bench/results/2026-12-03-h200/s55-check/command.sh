#!/usr/bin/env bash
# Session 55 call 3: the full check of main (every sm90 instance built, SASS, every GPU suite, memcheck / racecheck).
MIXGEMM_GIT_COMMIT=$(cat .s55/commit.txt) STAGES="build sass tests sanitize" timeout 560 bash scripts/device_check.sh
