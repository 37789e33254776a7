# Session 27, device call 8 (branch wip/smallm-ablate-ladder; its HEAD in .s27/commit.txt; carry .s27)
SKEL_BUILDS="E1 E3 E4 E5 E2" SKEL_MODES=graph bash scripts/device_smallm_skeleton.sh
