# Session 27, device call 4 (host main at 54b7f54; carry .s27 with .s27/commit.txt)
bash scripts/device_smallm_sched.sh "base|-|smallm_t8_w4_o4_p0" "r80o4|-DMIXGEMM_SMALLM_TM8_MINBLOCKS=3|smallm_t8_w4_o4_p0" \
  "r80o6|-DMIXGEMM_SMALLM_TM8_MINBLOCKS=3|smallm_t8_w4_o6_p0" "r80w8o3|-DMIXGEMM_SMALLM_TM8_MINBLOCKS=3|smallm_t8_w8_o3_p0"
