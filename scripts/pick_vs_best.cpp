// The dispatcher's picks against all-schedules tables (mixgemm-bench --all-schedules CSVs, or any CSVs holding
// several schedules per point, e.g. an A/B's runs): for every (shape, type spec, M) the schedule core::choose_among
// picks over every generated sm90 tile (as a full build picks), its time over the fastest measured schedule, and the
// geomean per type and M. The type config (activation, weight, group size) is read from the type spec.
//   <build>/tools/mixgemm-pick-vs-best A.csv ...      (any build makes it; or by hand:)
//   g++ -std=c++20 -O1 -Isrc -Iinclude -I<build>/generated -I/usr/local/cuda/include scripts/pick_vs_best.cpp \
//       <build>/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -lpthread -ldl -o pick_vs_best && ./pick_vs_best A.csv ...
// (any build's libmixgemm.a: the heuristics are host code). To evaluate a heuristic variant, compile its copy of
// sm90_heuristic.cpp / dispatch.cpp / smallm_heuristic.cpp beside this file with -Wl,--allow-multiple-definition
// before the library (sessions 63-66's make_*_variant.py). DETAIL=1 prints each tile's model time, split and measured
// time at the misses (pick > 1.02x the fastest), ALLDETAIL=1 at every point, VERBOSE=1 every pick.
// (Session 63 wrote it for u4b8 g128 tables: bench/results/2026-12-04-h200/s63-allsched24-128/analysis/; session 66
// made the type general and moved it here.)
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include "core/dispatch.h"
#include "core/problem.h"
#include "kernels/sm90/sm90.h"
#include "mixgemm/scalar_type.h"
using namespace mixgemm;
using namespace mixgemm::types;
int main(int argc, char** argv) {
  // key: shape|type|M -> schedule -> us
  std::map<std::string, std::map<std::string, double>> t;
  std::map<std::string, std::vector<long>> nk;
  for (int i = 1; i < argc; ++i) {
    std::ifstream f(argv[i]);
    std::string line;
    std::getline(f, line);
    while (std::getline(f, line)) {
      std::vector<std::string> c;
      std::stringstream ss(line);
      std::string x;
      while (std::getline(ss, x, ',')) c.push_back(x);
      if (c.size() < 16 || c[6] != "mixgemm" || c[15].empty()) continue;
      const std::string k = c[1] + "|" + c[7] + "|" + c[4];
      double v = std::stod(c[15]);
      auto& m = t[k];
      if (!m.count(c[12]) || m[c[12]] > v) m[c[12]] = v;
      nk[k] = {std::stol(c[2]), std::stol(c[3]), std::stol(c[4])};
    }
  }
  std::map<std::string, std::vector<double>> agg;
  for (auto& [k, m] : t) {
    const auto& v = nk[k];
    // The type from the spec (session 66: any activation, weight and group size; the session-63 tool assumed u4b8 g128).
    const std::string ts = k.substr(k.find('|') + 1, k.rfind('|') - k.find('|') - 1);
    const std::string an = ts.substr(0, ts.find('.')), bn = ts.substr(ts.find('.') + 1, ts.rfind('.') - ts.find('.') - 1);
    const std::string gn = ts.substr(ts.rfind('.') + 1);
    const ScalarType at = an == "s8" ? s8 : an == "e4m3" ? e4m3 : an == "bf16" ? bf16 : f16;
    const ScalarType bt_ = bn == "u8b128" ? u8b128 : bn == "u8" ? u8 : bn == "u4" ? u4 : u4b8;
    const bool zp = bn == "u4" || bn == "u8";
    const int64_t gs = gn == "gch" ? v[1] : std::stol(gn.substr(1));
    GemmProblem p{v[2], v[0], v[1], TypeConfig{at, bt_, at == s8 ? u8 : at == bf16 ? bf16 : f16, zp, at == bf16 ? bf16 : f16}, gs};
    const auto all = kernels::sm90_all_configs(core::to_kernel(p.types.a), core::to_kernel_b(p.types.b));
    const std::string pick = core::choose_among(p, 132, all);
    std::string best; double bt = 1e30;
    for (auto& [s, u] : m) if (u < bt) { bt = u; best = s; }
    if (!m.count(pick)) { printf("%s pick %s not measured\n", k.c_str(), pick.c_str()); continue; }
    const double r = m[pick] / bt;
    agg[k.substr(k.find('|') + 1, k.find('.') - k.find('|') - 1) + " M=" + std::to_string(v[2])].push_back(r);
    agg["all"].push_back(r);
    if ((getenv("DETAIL") && r > 1.02) || getenv("ALLDETAIL")) {
      for (const auto& c : all) {
        kernels::Sm90Config o; double pu = 0;
        std::vector<kernels::Sm90Config> one{c};
        kernels::sm90_pick(p.M, p.N, p.K, 132, core::to_kernel(p.types.a), core::to_kernel_b(p.types.b), p.group_size, one, &o, &pu);
        const auto sp = kernels::sm90_split(p.M, p.N, p.K, c, 132, core::to_kernel(p.types.a), core::to_kernel_b(p.types.b),
                                             kernels::Sm90SplitMode::kAuto);
        printf("   %s %-34s model %7.2f split whole %ld s %d stream %d measured %7.2f\n", k.c_str(), c.name().c_str(), pu, (long)sp.whole, sp.splits, sp.stream, m.count(c.name()) ? m[c.name()] : -1.0);
      }
    }
    if (getenv("VERBOSE") || r > 1.02) printf("%-40s pick %-32s %7.2f best %-32s %7.2f %.3f%s\n", k.c_str(), pick.c_str(), m[pick], best.c_str(), bt, r, r > 1.02 ? " <==" : "");
  }
  for (auto& [k, v] : agg) {
    double s = 0, mx = 0; for (double r : v) { s += std::log(r); mx = std::max(mx, r); }
    printf("%-12s geomean %.4f max %.3f n %zu\n", k.c_str(), std::exp(s / v.size()), mx, v.size());
  }
}
