# Session 27, device call 1: the decode kernel's ablation ladder (branch wip/smallm-ablate-ladder,
# rebased on main 2b9b25a; its HEAD in commit.txt; the bench rows carry main's commit 2b9b25a because the
# device copy had no usable .git and the script wrote the carried commit.txt).
git checkout wip/smallm-ablate-ladder; mkdir -p .s26; git rev-parse HEAD > .s26/commit.txt
# device tool: run, carry [".s26"], timeout 600:
bash scripts/device_smallm_ladder.sh
