#!/usr/bin/env bash
# Session 63, call 1: ../s62-next/ab_variantkernels.sh as prepared in session 62, unchanged (run as
# .s63/ab_variantkernels.sh with the s62-next folder copied to .s63/ and .s63/commit.txt = eaa6796).
bash "$(dirname "$0")/../s62-next/ab_variantkernels.sh"
