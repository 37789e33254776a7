#!/usr/bin/env bash
# Session 59 call 2: session 58's prepared profile, run as prepared (from a copy of s58-next in .s59/).
bash bench/results/2026-12-04-h200/s58-next/prof_psbranch.sh
