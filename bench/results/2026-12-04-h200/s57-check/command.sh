#!/usr/bin/env bash
# Session 57 call 1: the full check of main (every sm90 instance built, SASS, every GPU suite incl. Sm90.SplitKParts,
# memcheck / racecheck): the first full check since session 56's narrow-tile split-K epilogue change.
MIXGEMM_GIT_COMMIT=$(cat .s57/commit.txt) STAGES="build sass tests sanitize" timeout 560 bash scripts/device_check.sh
