#!/usr/bin/env bash
# Session 54's call-1 script (../../2026-12-03-h200/s54-rowsplit/rowsplit.sh) on the tree of session 65, with its
# scripts folder .s65 (this folder copied there, HEAD in .s65/commit.txt): bash .s65/rowsplit.sh   (carry .s65)
S=${S:-.s65} bash bench/results/2026-12-03-h200/s54-rowsplit/rowsplit.sh
