# Session 97: writes sm90_h.cpp, a copy of src/kernels/sm90/sm90_heuristic.cpp (fd789ce) whose kModelE4M3 two-atom
# factor reads E_TWO from the environment (default main's 1.8; session 84's change was 1.56 -> 1.8), so that one
# pick_vs_best binary scores both rankings on the same table. Build (repo root, <build> a Release build of fd789ce):
#   python3 make_variant.py src/kernels/sm90/sm90_heuristic.cpp > sm90_h.cpp
#   g++ -std=c++20 -O1 -Isrc -Iinclude -Isrc/kernels/sm90 -I<build>/generated -I/usr/local/cuda/include \
#       scripts/pick_vs_best.cpp sm90_h.cpp -Wl,--allow-multiple-definition <build>/libmixgemm.a \
#       -L/usr/local/cuda/lib64 -lcudart -lpthread -ldl -o pvb_var
#   VERBOSE=1 E_TWO=1.56 ./pvb_var e.csv > old-e.txt; VERBOSE=1 E_TWO=1.8 ./pvb_var e.csv > new-e.txt   (and g.csv)
import sys
s = open(sys.argv[1]).read()
old = 'constexpr TimeModel kModelE4M3{273, 308, 378, 2000, 75, 1.8, 0.75};'
assert old in s, old
s = s.replace(old, 'static double envd(const char* n, double d) { const char* v = getenv(n); return v ? atof(v) : d; }\n'
              'const TimeModel kModelE4M3{273, 308, 378, 2000, 75, envd("E_TWO", 1.8), 0.75};')
s = s.replace('constexpr TimeModel kModelE4M3Narrow', 'const TimeModel kModelE4M3Narrow')
sys.stdout.write('#include <cstdlib>\n' + s)
