# Session 27, device call 2 (host: main at the commit in commit.txt; the patch = git diff main...wip/smallm-fold2)
git diff main...wip/smallm-fold2 > .s27/fold2.patch; git rev-parse HEAD > .s27/commit.txt
# device tool: run, carry [".s27"], timeout 600:
AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128 bash scripts/device_smallm_ab.sh .s27/fold2.patch
