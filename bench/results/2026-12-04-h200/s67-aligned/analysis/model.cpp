// Session 67: per measured point of an every-schedule table (graph CSV, event CSV), each smallm schedule's model time
// (smallm_predicted_us) and measured times, and sm90's pick with its ranked time (kModelA16's for e4m3).
// usage: ./model GRAPH.csv EVENT.csv > model.csv   (build as plan.cpp)
// prints, per measured (shape,type,M): each smallm config's model time and measured (graph, event), and sm90's ranked time
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include "core/dispatch.h"
#include "kernels/smallm/smallm.h"
#include "kernels/sm90/sm90.h"
#include "mixgemm/scalar_type.h"
using namespace mixgemm;
using namespace mixgemm::kernels;
std::map<std::string, std::map<std::string, double>> load(const char* fn, std::map<std::string, std::vector<long>>& nk) {
  std::map<std::string, std::map<std::string, double>> t;
  std::ifstream f(fn); std::string line; std::getline(f, line);
  while (std::getline(f, line)) {
    std::vector<std::string> c; std::stringstream ss(line); std::string x;
    while (std::getline(ss, x, ',')) c.push_back(x);
    if (c.size() < 16 || c[6] != "mixgemm" || c[15].empty()) continue;
    const std::string k = c[1] + "|" + c[7] + "|" + c[4];
    t[k][c[12]] = std::stod(c[15]); nk[k] = {std::stol(c[2]), std::stol(c[3]), std::stol(c[4])};
  }
  return t;
}
int main(int argc, char** argv) {
  std::map<std::string, std::vector<long>> nk;
  auto G = load(argv[1], nk); auto E = load(argv[2], nk);
  for (auto& [k, m] : G) {
    const auto& v = nk[k];
    const std::string ts = k.substr(k.find('|') + 1);
    const AType a = ts.rfind("s8", 0) == 0 ? AType::kS8 : ts.rfind("e4m3", 0) == 0 ? AType::kE4M3 : AType::kF16;
    const BType b = BType::kU4B8;
    for (const SmallmConfig& c : smallm_configs(a, b)) {
      if (!m.count(c.name())) continue;
      printf("%s,%s,%.3f,%.3f,%.3f\n", k.c_str(), c.name().c_str(), smallm_predicted_us(v[2], v[0], v[1], 132, a, b, c), m[c.name()], E[k].count(c.name()) ? E[k][c.name()] : -1.0);
    }
    Sm90Config big; double tr = 0;
    const auto all = sm90_all_configs(a, b);
    if (sm90_pick(v[2], v[0], v[1], 132, a, b, 128, all, &big, &tr))
      printf("%s,%s,%.3f,%.3f,%.3f\n", k.c_str(), ("SM90PICK:" + big.name()).c_str(), a == AType::kE4M3 ? sm90_predicted_us(v[2], v[0], v[1], 132, a, b, big) : tr, m.count(big.name()) ? m[big.name()] : -1.0, E[k].count(big.name()) ? E[k][big.name()] : -1.0);
  }
}
