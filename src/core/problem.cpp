#include "core/problem.h"

#include "core/check.h"

namespace mixgemm {

std::string TypeConfig::name() const {
  std::string s = a.name() + "." + b.name();
  if (has_zeros) s += "+z";
  s += ".s=" + scale.name() + ".out=" + out.name();
  return s;
}

namespace core {

using namespace mixgemm::types;

bool is_16bit_activation(ScalarType a) { return a == f16 || a == bf16; }

layout::Kind layout_kind(const TypeConfig& t) {
  return layout::Kind{t.b.size_bits(), is_16bit_activation(t.a) ? 16 : 8};
}

void check_type_config(const TypeConfig& t, const char* where) {
  const bool a16 = is_16bit_activation(t.a);
  const bool a8 = t.a == s8 || t.a == e4m3;
  MIXGEMM_REQUIRE(a16 || a8, where,
                  "types.a=" << t.a.name() << " is not an activation type; accepted: f16, bf16, s8, e4m3");
  const bool b4 = t.b == u4b8 || t.b == u4;
  const bool b8 = t.b == u8b128 || t.b == u8;
  MIXGEMM_REQUIRE(b4 || b8, where,
                  "types.b=" << t.b.name() << " is not a weight type; accepted: u4b8, u4, u8b128, u8");
  MIXGEMM_REQUIRE(!(a8 && b8), where,
                  "types.b=" << t.b.name() << " with types.a=" << t.a.name()
                             << " is not supported; 8-bit activations accept u4b8 and u4 weights");
  MIXGEMM_REQUIRE(!t.has_zeros || !t.b.has_bias(), where,
                  "types.has_zeros with types.b=" << t.b.name()
                                                  << ": zero points go with unbiased weights; use u4 or u8");
  if (a16) {
    MIXGEMM_REQUIRE(t.out == t.a, where,
                    "types.out=" << t.out.name() << " with types.a=" << t.a.name()
                                 << "; 16-bit activations produce their own type: out=" << t.a.name());
    MIXGEMM_REQUIRE(t.scale == t.a, where,
                    "types.scale=" << t.scale.name() << " with types.a=" << t.a.name()
                                   << "; group scales of 16-bit activations have the activation type");
  } else {
    MIXGEMM_REQUIRE(t.out == f16 || t.out == bf16, where,
                    "types.out=" << t.out.name() << "; 8-bit activations accept out=f16 or out=bf16");
    const ScalarType want = t.a == s8 ? u8 : f16;
    MIXGEMM_REQUIRE(t.scale == want, where,
                    "types.scale=" << t.scale.name() << " with types.a=" << t.a.name() << "; accepted: "
                                   << want.name()
                                   << (t.a == s8 ? " (QQQ integer group scales 1..16)" : " (f16 group scales)"));
  }
}

int64_t num_groups(const GemmProblem& p) { return p.group_size > 0 ? p.K / p.group_size : 1; }

void check_problem(const GemmProblem& p, const char* where, bool allow_empty) {
  check_type_config(p.types, where);
  MIXGEMM_REQUIRE(p.M >= (allow_empty ? 0 : 1), where,
                  "M=" << p.M << "; accepted: M >= " << (allow_empty ? 0 : 1)
                       << (allow_empty || p.M != 0 ? "" : " (M = 0 launches nothing: gemm() accepts it and returns)"));
  MIXGEMM_REQUIRE(p.N >= 1 && p.K >= 1, where, "N=" << p.N << ", K=" << p.K << "; accepted: N, K >= 1");
  MIXGEMM_REQUIRE(p.M <= INT32_MAX && p.N <= INT32_MAX && p.K <= INT32_MAX, where,
                  "M, N, K must each fit in int32");
  const layout::Kind kind = layout_kind(p.types);
  MIXGEMM_REQUIRE(p.N % layout::kBlockRows == 0, where,
                  "N=" << p.N << " is not a multiple of " << layout::kBlockRows
                       << " (the prepacked layout's block height); pad N up to "
                       << (p.N + 15) / 16 * 16 << " with zero weights and drop the extra outputs");
  MIXGEMM_REQUIRE(p.K % kind.block_k() == 0, where,
                  "K=" << p.K << " is not a multiple of " << kind.block_k() << " for "
                       << p.types.b.name() << " weights; pad K up to "
                       << (p.K + kind.block_k() - 1) / kind.block_k() * kind.block_k()
                       << " with zero weights and zero activations");
  const bool a8 = !is_16bit_activation(p.types.a);
  const int gmul = a8 ? 32 : 16;
  const bool g_ok = p.group_size == 0 || p.group_size == p.K ||
                    (p.group_size > 0 && p.group_size % gmul == 0 && p.K % p.group_size == 0);
  MIXGEMM_REQUIRE(g_ok, where,
                  "group_size=" << p.group_size << " with K=" << p.K << "; accepted: 0 (no group scales), K "
                                << "(per-channel), or a multiple of " << gmul
                                << " that divides K (e.g. 32, 64, 128, 256)");
  if (p.types.a == s8) {
    MIXGEMM_REQUIRE(p.K <= kMaxKS8, where,
                    "K=" << p.K << " with s8 activations could overflow the s32 accumulator; accepted: K <= "
                         << kMaxKS8);
  }
}

kernels::AType to_kernel(ScalarType a) {
  if (a == f16) return kernels::AType::kF16;
  if (a == bf16) return kernels::AType::kBF16;
  if (a == s8) return kernels::AType::kS8;
  return kernels::AType::kE4M3;
}
kernels::BType to_kernel_b(ScalarType b) {
  if (b == u4b8) return kernels::BType::kU4B8;
  if (b == u4) return kernels::BType::kU4;
  if (b == u8b128) return kernels::BType::kU8B128;
  return kernels::BType::kU8;
}
kernels::OutType to_kernel_out(ScalarType o) {
  return o == bf16 ? kernels::OutType::kBF16 : kernels::OutType::kF16;
}

}  // namespace core
}  // namespace mixgemm
