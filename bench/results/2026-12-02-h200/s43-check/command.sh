#!/usr/bin/env bash
# Session 43 call 1: the full check of main (every sm90 instance built, SASS, every GPU suite, memcheck / racecheck).
MIXGEMM_GIT_COMMIT=$(cat .s43/commit.txt) STAGES="build sass tests sanitize" bash scripts/device_check.sh
