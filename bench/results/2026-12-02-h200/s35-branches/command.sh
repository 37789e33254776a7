#!/usr/bin/env bash
# Session 35 call 1: session 34's prepared call, run as written (its patches and commit.txt copied into .s35, .s35
# carried to the device):
#   mkdir -p .s35 && cp bench/results/2026-12-02-h200/s34-next/*.patch .s35/ && git rev-parse HEAD > .s35/commit.txt
S=.s35 bash bench/results/2026-12-02-h200/s34-next/next-call.sh
