// Uses the installed headers and library: types by name, the host-side API.
#include <mixgemm/gemm.h>
#include <mixgemm/prepack.h>
#include <mixgemm/scalar_type.h>

#include <cstdio>

int main() {
  using namespace mixgemm;
  const ScalarType b = ScalarType::from_name("u4b8");
  if (!(b == types::u4b8) || b.name() != "u4b8") return 1;
  GemmProblem p;
  p.M = 16;
  p.N = 8192;
  p.K = 21760;
  p.types = TypeConfig{types::f16, types::u4b8, types::f16, false, types::f16};
  p.group_size = 128;
  const size_t ws = workspace_size(p);
  const size_t bytes = prepacked_size(p.K, p.N, b);
  if (bytes != static_cast<size_t>(p.K * p.N / 2)) return 2;
  try {
    p.group_size = 48;  // does not divide K: must be refused with a message
    (void)workspace_size(p);
    return 3;
  } catch (const Error& e) {
    std::printf("refused as expected: %s\n", e.what());
  }
  std::printf("consumer ok: workspace %zu bytes, prepacked %zu bytes\n", ws, bytes);
  return 0;
}
