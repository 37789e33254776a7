#!/usr/bin/env bash
# Session 54 call 1, as run on the device (tree at 4b2d926, the scripts in .s54/): bash .s54/rowsplit.sh
# The script as it ran is inside rowsplit.tar.gz (rowsplit/rowsplit.sh); ../rowsplit.sh is the same with the
# RS_EXTRA / RS_NO_VERIFY hooks call 2 added (unset, it runs what call 1 ran).
S=${S:-.s54}
bash $S/rowsplit.sh
