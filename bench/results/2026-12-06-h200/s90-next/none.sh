#!/usr/bin/env bash
# The other-card branch of poll90.sh: nothing to run (the card's name is already in $OUT/gpu.txt).
echo "not an H200: nothing run"
