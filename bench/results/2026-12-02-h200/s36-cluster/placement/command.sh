#!/usr/bin/env bash
# Session 36 call 1, as run from the repository root on the device (.s36 carried, holding cluster-earlywait.patch,
# the copy in this folder): session 35's prepared script, unchanged.
S=.s36 bash bench/results/2026-12-02-h200/s35-next/next-call.sh
