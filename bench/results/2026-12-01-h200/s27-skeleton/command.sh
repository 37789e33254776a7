# Session 27, device call 7 (branch wip/smallm-ablate-ladder; its HEAD in .s27/commit.txt; carry .s27)
bash scripts/device_smallm_skeleton.sh
