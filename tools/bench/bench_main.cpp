// bench_main.cpp - mixgemm-bench: see tools/bench/options.h (usage) and docs/performance.md.
#include "bench.h"

int main(int argc, char** argv) { return mixgemm::bench::bench_main(argc, argv); }
