# Session 65: writes sm90_h.cpp, a copy of main's src/kernels/sm90/sm90_heuristic.cpp (aac0d3d: `git show
# aac0d3d:src/kernels/sm90/sm90_heuristic.cpp > main_heuristic.cpp`) whose 16-bit ranking model (model_of for f16 /
# bf16) is read from the environment (R_T64, R_T128, R_T256, R_OVH, R_PART, R_TWO, R_TWOR; defaults: kModelA16's
# values) and whose ranking split is each tile's own (kAuto) at every M when R_AUTO (16-bit) / S_AUTO (8-bit) is set.
# kModelA16 keeps deciding the splits and the crossover. Compile it beside pick_vs_best.cpp, before the library:
#   python3 make_rank_variant.py main_heuristic.cpp > sm90_h.cpp
#   g++ -std=c++20 -O1 -Isrc -Iinclude -I<build>/generated -I/usr/local/cuda/include pick_vs_best.cpp sm90_h.cpp \
#       <build>/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -lpthread -ldl -o pvb_var
# grid.py / cv.py drive pvb_var (grid over the constants; leave-one-layer-set-out -> cv.txt).
import sys
s = open(sys.argv[1]).read()
for old, new in [
    ('const TimeModel& model_of(AType a) {\n  return is_a16(a) ? kModelA16 :',
     'static double envd(const char* n, double d) { const char* v = getenv(n); return v ? atof(v) : d; }\n'
     'TimeModel kRankA16{envd("R_T64", 411), envd("R_T128", 443), envd("R_T256", 682), envd("R_OVH", 3000), '
     'envd("R_PART", 25), envd("R_TWO", 1.25), envd("R_TWOR", 0.75)};\n'
     'const TimeModel& model_of(AType a) {\n  return is_a16(a) ? kRankA16 :'),
    ('const Sm90SplitMode rank = M > 128 ? Sm90SplitMode::kAuto : Sm90SplitMode::kSplitK;',
     'const Sm90SplitMode rank = (M > 128 || (is_a16(a) && getenv("R_AUTO")) || (!is_a16(a) && getenv("S_AUTO"))) '
     '? Sm90SplitMode::kAuto : Sm90SplitMode::kSplitK;')]:
    assert old in s, old
    s = s.replace(old, new)
sys.stdout.write('#include <cstdlib>\n' + s)
