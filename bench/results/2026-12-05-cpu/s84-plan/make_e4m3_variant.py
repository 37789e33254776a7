# Session 84: writes sm90_h.cpp, a copy of src/kernels/sm90/sm90_heuristic.cpp (ac06c14) whose kModelE4M3 reads
# E_T64 / E_T128 / E_T256 / E_OVH / E_PART / E_TWO / E_TWOR from the environment (defaults: main's values), for
# grid_e4m3.py / cv_e4m3.py. Build beside scripts/pick_vs_best.cpp, before the library:
#   python3 make_e4m3_variant.py src/kernels/sm90/sm90_heuristic.cpp > sm90_h.cpp
#   g++ -std=c++20 -O1 -Isrc -Iinclude -I<build>/generated -I/usr/local/cuda/include scripts/pick_vs_best.cpp sm90_h.cpp \
#       -Wl,--allow-multiple-definition <build>/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -lpthread -ldl -o pvb_var
import sys
s = open(sys.argv[1]).read()
old = 'constexpr TimeModel kModelE4M3{273, 308, 378, 2000, 75, 1.56, 0.75};'
assert old in s, old
s = s.replace(old, 'static double envd(const char* n, double d) { const char* v = getenv(n); return v ? atof(v) : d; }\n'
              'const TimeModel kModelE4M3{envd("E_T64", 273), envd("E_T128", 308), envd("E_T256", 378), envd("E_OVH", 2000), '
              'envd("E_PART", 75), envd("E_TWO", 1.56), envd("E_TWOR", 0.75)};')
sys.stdout.write('#include <cstdlib>\n' + s)
