#!/usr/bin/env bash
# Session 59 call 3: the same profiles at the real clocks with the caches left as they are (ncu's NCU_EXTRA, read by
# scripts/profile_smallm.sh), as the bench runs them.
NCU_EXTRA="--clock-control none --cache-control none" bash bench/results/2026-12-04-h200/s58-next/prof_psbranch.sh
