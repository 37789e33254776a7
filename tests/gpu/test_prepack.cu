// test_prepack.cu - GPU prepack (src/kernels/prepack/prepack.cu) == CPU prepack byte for byte,
// on several shapes (partial column tiles, the seed shape K=21760 N=8192) and every format;
// plus the bandwidth measurement (lines starting with PREPACK_BW on stdout).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu_test_util.h"
#include "mixgemm/error.h"
#include "mixgemm/layout.h"
#include "mixgemm/prepack.h"
#include "mixgemm/scalar_type.h"

namespace {

namespace ty = mixgemm::types;
namespace lay = mixgemm::layout;
using mixgemm::ScalarType;
using mixgemm::WeightFormat;

constexpr uint64_t kSeed = 0x9E3779B97F4A7C15ull;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Random source bytes of a format: unpacked 4-bit values are 0..15, packed formats any bits.
std::vector<uint8_t> random_source(WeightFormat f, int64_t K, int64_t N, int bits, uint64_t seed) {
  const size_t bytes = f == WeightFormat::kUnpacked ? static_cast<size_t>(K * N) : static_cast<size_t>(K * N / 2);
  std::vector<uint8_t> v(bytes);
  uint64_t s = seed;
  const uint8_t mask = (f == WeightFormat::kUnpacked && bits == 4) ? 0x0F : 0xFF;
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t r = splitmix(s);
    for (int b = 0; b < 8; ++b) v[i + b] = static_cast<uint8_t>(r >> (8 * b)) & mask;
  }
  for (; i < bytes; ++i) v[i] = static_cast<uint8_t>(splitmix(s)) & mask;
  return v;
}

const char* fmt_name(WeightFormat f) {
  return f == WeightFormat::kUnpacked ? "unpacked" : f == WeightFormat::kGptq ? "gptq" : "awq";
}

struct DevMem {
  void* p = nullptr;
  explicit DevMem(size_t bytes) {
    if (cudaMalloc(&p, bytes + 64) != cudaSuccess) p = nullptr;
  }
  ~DevMem() { cudaFree(p); }
  uint8_t* u8() const { return static_cast<uint8_t*>(p); }
};

// Runs the GPU prepack (src at byte offset `src_offset` in its allocation) and compares with
// prepack_cpu byte for byte; failures name the first differing bytes and the seed.
void check_against_cpu(WeightFormat f, int64_t K, int64_t N, ScalarType b, ScalarType a,
                       size_t src_offset = 0) {
  const int bits = b.size_bits();
  const uint64_t seed = kSeed ^ (static_cast<uint64_t>(K) << 20) ^ static_cast<uint64_t>(N) ^
                        (static_cast<uint64_t>(f) << 60) ^ static_cast<uint64_t>(bits);
  const auto src = random_source(f, K, N, bits, seed);
  const size_t out_bytes = mixgemm::prepacked_size(K, N, b);
  std::vector<uint8_t> want(out_bytes), got(out_bytes);
  mixgemm::prepack_cpu(src.data(), f, K, N, b, a, want.data());

  DevMem d_src(src.size() + src_offset), d_dst(out_bytes);
  ASSERT_NE(d_src.p, nullptr) << "cudaMalloc " << src.size();
  ASSERT_NE(d_dst.p, nullptr) << "cudaMalloc " << out_bytes;
  MIXGEMM_CUDA_OK(cudaMemcpy(d_src.u8() + src_offset, src.data(), src.size(), cudaMemcpyHostToDevice));
  MIXGEMM_CUDA_OK(cudaMemset(d_dst.p, 0xA5, out_bytes));  // poison
  cudaStream_t stream;
  MIXGEMM_CUDA_OK(cudaStreamCreate(&stream));
  mixgemm::prepack(d_src.u8() + src_offset, f, K, N, b, a, d_dst.p, stream);
  MIXGEMM_CUDA_OK(cudaStreamSynchronize(stream));
  MIXGEMM_CUDA_OK(cudaStreamDestroy(stream));
  MIXGEMM_CUDA_OK(cudaMemcpy(got.data(), d_dst.p, out_bytes, cudaMemcpyDeviceToHost));

  size_t bad = 0;
  std::ostringstream first;
  for (size_t i = 0; i < out_bytes; ++i) {
    if (got[i] == want[i]) continue;
    if (bad < 6) {
      const size_t block = i / 512, lane = (i % 512) / 16;
      const int64_t nblocks_n = N / 16;
      first << "\n  byte " << i << " (k-block " << block / nblocks_n << ", n-block " << block % nblocks_n
            << ", lane " << lane << ", byte " << i % 16 << "): gpu 0x" << std::hex << int(got[i]) << " cpu 0x"
            << int(want[i]) << std::dec << (got[i] == 0xA5 ? " (poison: not written?)" : "");
    }
    ++bad;
  }
  EXPECT_EQ(bad, 0u) << fmt_name(f) << " " << b.name() << "/" << a.name() << " K=" << K << " N=" << N
                     << " src offset " << src_offset << " seed 0x" << std::hex << seed << std::dec << ": " << bad
                     << " of " << out_bytes << " bytes differ" << first.str();
}

struct Shape {
  int64_t K, N;
};

TEST(PrepackGpu, MatchesCpuFourBitAllFormats) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  // 144, 272, 4112: the last column tile is partial (tiles are 128 columns).
  const Shape shapes[] = {{64, 16}, {128, 48}, {192, 144}, {256, 272}, {640, 4112}, {1024, 4096}};
  for (WeightFormat f : {WeightFormat::kUnpacked, WeightFormat::kGptq, WeightFormat::kAwq})
    for (auto [b, a] : {std::pair{ty::u4b8, ty::f16}, std::pair{ty::u4, ty::bf16}, std::pair{ty::u4b8, ty::s8},
                        std::pair{ty::u4, ty::e4m3}})
      for (const Shape& s : shapes) check_against_cpu(f, s.K, s.N, b, a);
}

TEST(PrepackGpu, MatchesCpuEightBit) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  const Shape shapes[] = {{32, 16}, {96, 48}, {160, 144}, {512, 4112}, {2048, 1024}};
  for (ScalarType b : {ty::u8b128, ty::u8})
    for (ScalarType a : {ty::f16, ty::bf16})
      for (const Shape& s : shapes) check_against_cpu(WeightFormat::kUnpacked, s.K, s.N, b, a);
}

TEST(PrepackGpu, MatchesCpuOnTheSeedShape) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  for (WeightFormat f : {WeightFormat::kUnpacked, WeightFormat::kGptq, WeightFormat::kAwq}) {
    check_against_cpu(f, 21760, 8192, ty::u4b8, ty::f16);
    check_against_cpu(f, 21760, 8192, ty::u4, ty::s8);
  }
  check_against_cpu(WeightFormat::kUnpacked, 21760, 8192, ty::u8b128, ty::bf16);
}

TEST(PrepackGpu, UnalignedSourceTakesTheSlowPathCorrectly) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  check_against_cpu(WeightFormat::kUnpacked, 128, 144, ty::u4b8, ty::f16, 1);
  check_against_cpu(WeightFormat::kGptq, 128, 144, ty::u4b8, ty::f16, 4);
  check_against_cpu(WeightFormat::kAwq, 128, 144, ty::u4, ty::s8, 8);
  check_against_cpu(WeightFormat::kUnpacked, 64, 48, ty::u8, ty::f16, 3);
}

TEST(PrepackGpu, RefusesBadArgumentsWithoutLaunching) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  DevMem d(1 << 16);
  ASSERT_NE(d.p, nullptr);
  auto code = [](auto&& fn) {
    try {
      fn();
    } catch (const mixgemm::Error& e) {
      return static_cast<int>(e.code());
    }
    return -1;
  };
  const int inval = static_cast<int>(mixgemm::ErrorCode::kInvalidArgument);
  EXPECT_EQ(code([&] { mixgemm::prepack(d.p, WeightFormat::kUnpacked, 64, 24, ty::u4, ty::f16, d.u8(), nullptr); }), inval);
  EXPECT_EQ(code([&] { mixgemm::prepack(nullptr, WeightFormat::kUnpacked, 64, 16, ty::u4, ty::f16, d.u8(), nullptr); }), inval);
  EXPECT_EQ(code([&] { mixgemm::prepack(d.p, WeightFormat::kUnpacked, 64, 16, ty::u4, ty::f16, nullptr, nullptr); }), inval);
  EXPECT_EQ(code([&] { mixgemm::prepack(d.p, WeightFormat::kUnpacked, 64, 16, ty::u4, ty::f16, d.u8() + 8, nullptr); }), inval);
  EXPECT_EQ(code([&] { mixgemm::prepack(d.p, WeightFormat::kGptq, 32, 16, ty::u8, ty::f16, d.u8(), nullptr); }), inval);
  EXPECT_EQ(code([&] { mixgemm::prepack(d.p, WeightFormat::kUnpacked, 32, 16, ty::u8, ty::s8, d.u8(), nullptr); }),
            static_cast<int>(mixgemm::ErrorCode::kNotSupported));
  // In place (dst overlapping src) is refused: the kernel would read bytes it already wrote.
  EXPECT_EQ(code([&] { mixgemm::prepack(d.p, WeightFormat::kUnpacked, 64, 16, ty::u4, ty::f16, d.u8(), nullptr); }), inval);
  // Host memory on either side is named, not handed to the kernel (session 74).
  alignas(256) static uint8_t host[1 << 12];
  EXPECT_EQ(code([&] { mixgemm::prepack(host, WeightFormat::kUnpacked, 64, 16, ty::u4, ty::f16, d.u8(), nullptr); }), inval);
  EXPECT_EQ(code([&] { mixgemm::prepack(d.p, WeightFormat::kUnpacked, 64, 16, ty::u4, ty::f16, host, nullptr); }), inval);
  MIXGEMM_CUDA_OK(cudaDeviceSynchronize());
}

// Achieved bandwidth (bytes read + written) on a 57344 x 8192 int4 matrix; median of 20.
TEST(PrepackGpu, Bandwidth) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  const int64_t K = 57344, N = 8192;
  const size_t out_bytes = mixgemm::prepacked_size(K, N, ty::u4b8);
  DevMem d_src(static_cast<size_t>(K * N)), d_dst(out_bytes), d_copy(out_bytes);
  ASSERT_NE(d_src.p, nullptr);
  ASSERT_NE(d_dst.p, nullptr);
  ASSERT_NE(d_copy.p, nullptr);
  cudaEvent_t e0, e1;
  MIXGEMM_CUDA_OK(cudaEventCreate(&e0));
  MIXGEMM_CUDA_OK(cudaEventCreate(&e1));
  auto median_ms = [&](auto&& fn) {
    for (int i = 0; i < 3; ++i) fn();  // warm-up
    std::vector<float> t;
    for (int i = 0; i < 20; ++i) {
      cudaEventRecord(e0);
      fn();
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return 0.5 * (t[9] + t[10]);
  };
  // copy baseline: device-to-device copy of the output size (reads + writes 2 * out_bytes)
  const double copy_ms = median_ms([&] { cudaMemcpyAsync(d_copy.p, d_dst.p, out_bytes, cudaMemcpyDeviceToDevice); });
  const double copy_gbs = 2.0 * out_bytes / (copy_ms * 1e-3) / 1e9;
  std::printf("PREPACK_BW format=copy K=%lld N=%lld bytes=%zu median_ms=%.4f GB/s=%.1f\n", (long long)K, (long long)N,
              2 * out_bytes, copy_ms, copy_gbs);
  for (WeightFormat f : {WeightFormat::kGptq, WeightFormat::kUnpacked, WeightFormat::kAwq}) {
    for (ScalarType a : {ty::f16, ty::s8}) {
      const size_t in_bytes = f == WeightFormat::kUnpacked ? static_cast<size_t>(K * N) : out_bytes;
      MIXGEMM_CUDA_OK(cudaMemset(d_src.p, f == WeightFormat::kUnpacked ? 0x05 : 0x5A, in_bytes));
      const double ms = median_ms([&] { mixgemm::prepack(d_src.p, f, K, N, ty::u4b8, a, d_dst.p, nullptr); });
      MIXGEMM_CUDA_OK(cudaGetLastError());
      const double gbs = (in_bytes + out_bytes) / (ms * 1e-3) / 1e9;
      std::printf("PREPACK_BW format=%s a=%s K=%lld N=%lld bytes=%zu median_ms=%.4f GB/s=%.1f copy_fraction=%.2f\n",
                  fmt_name(f), a.name().c_str(), (long long)K, (long long)N, in_bytes + out_bytes, ms, gbs,
                  gbs / copy_gbs);
      std::fflush(stdout);
    }
  }
  MIXGEMM_CUDA_OK(cudaDeviceSynchronize());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
}

}  // namespace
