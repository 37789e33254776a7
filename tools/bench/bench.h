// bench.h - entry point of mixgemm-bench (the executable's main calls it).
#pragma once

namespace mixgemm::bench {

// Runs the benchmark with the command line; returns the process exit status
// (0 ok, 1 failure, 2 bad command line, 3 no GPU).
int bench_main(int argc, char** argv);

}  // namespace mixgemm::bench
