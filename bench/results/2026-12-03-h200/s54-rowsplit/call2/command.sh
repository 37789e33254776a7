#!/usr/bin/env bash
# Session 54 call 2: rowsplit.sh on shapes and M values call 1 did not time (held out for the rule's constants):
# Llama-3-405B at tp 8, Llama-2-13B, Qwen2-7B MLP, Qwen2-72B MLP; M = 272..3300. No verify pass.
S=${S:-.s54}
export RS_SHAPES=llama3-405b RS_MS=272,336,400,464,528,600,672,736,832,960,1200,1500,1800,2200,2700,3300 \
  RS_EXTRA="--tp 8 --shape 15360x5120 --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --shape 37888x3584 --shape 3584x18944 --shape 59136x8192 --shape 8192x29568" \
  RS_NO_VERIFY=1
bash $S/rowsplit.sh   # = ../rowsplit.sh
