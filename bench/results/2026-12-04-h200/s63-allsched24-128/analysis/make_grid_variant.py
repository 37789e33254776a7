# Session 63: writes sm90_h.cpp, a copy of src/kernels/sm90/sm90_heuristic.cpp whose kModelA16 / kModelS8 constants
# (the 64- and 128-token block times, the 256 x 64 tile's block and partial factors) come from the environment
# (A_T64, A_T128, A_T256, A_OVH, A_PART, A_TWO, A_TWOR, S_T64, S_T128, S_OVH, S_PART, S_TWO, S_TWOR; defaults: the
# committed values), for grid.txt and gridA.txt.
#   python3 make_grid_variant.py REPO/src/kernels/sm90/sm90_heuristic.cpp > sm90_h.cpp
import sys
s = open(sys.argv[1]).read()
for old, new in [
    ('constexpr TimeModel kModelA16{411, 443, 682, 3000, 25, 1.25, 0.75};',
     'static double envd(const char* n, double d) { const char* v = getenv(n); return v ? atof(v) : d; }\n'
     'TimeModel kModelA16{envd("A_T64", 411), envd("A_T128", 443), envd("A_T256", 682), envd("A_OVH", 3000), '
     'envd("A_PART", 25), envd("A_TWO", 1.25), '
     'envd("A_TWOR", 0.75)};'),
    ('constexpr TimeModel kModelS8{204, 245, 340, 2000, 75, 1.57, 0.75};',
     'TimeModel kModelS8{envd("S_T64", 204), envd("S_T128", 245), 340, envd("S_OVH", 2000), envd("S_PART", 75), '
     'envd("S_TWO", 1.57), '
     'envd("S_TWOR", 0.75)};')]:
    assert old in s, old
    s = s.replace(old, new)
sys.stdout.write('#include <cstdlib>\n' + s)
