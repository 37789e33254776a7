#!/usr/bin/env bash
# Session 37, device call 1: session 36's prepared diagnostic, run as prepared.
# Host: cp bench/results/2026-12-02-h200/s36-next/diag*.patch .s37/ && git rev-parse HEAD > .s37/commit.txt
# Device (carry .s37):
S=.s37 bash bench/results/2026-12-02-h200/s36-next/diag-call.sh
