#!/usr/bin/env bash
# Session 65 call 3 (same machine, right after call 2):
ALLSCHED_TYPES=s8.u4b8.g128 ALLSCHED_SM90_TYPES=s8.u4 bash .s65/allsched_sm90.sh s8all   # = ../call2-f16all/command.sh
