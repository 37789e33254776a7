// mixgemm._C - the nanobind bindings of mixgemm's host API.
//
// Arrays cross as nb::ndarray (DLPack or the buffer protocol): NumPy arrays on the CPU
// paths, any DLPack producer (PyTorch, CuPy, JAX) on the GPU paths. No framework type is
// known here; the PyTorch integration (mixgemm/torch.py) is pure Python and calls the
// raw-pointer entries (gemm_ptr, quantize_activations_ptr) with integers.
//
// Element types are passed by name ("f16", "u4b8", ...; mixgemm::ScalarType::from_name).
// The binding only checks what it derives from the arrays (device, rank, contiguity,
// element size, shapes against M/N/K); every other check is the library's, and its
// mixgemm::Error arrives in Python with the same message, as
//   InvalidArgumentError (a MixgemmError and a ValueError),
//   NotSupportedError    (a MixgemmError and a NotImplementedError),
//   CudaError            (a MixgemmError and a RuntimeError).
#include <cuda_runtime_api.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mixgemm/activation_quant.h"
#include "mixgemm/error.h"
#include "mixgemm/formats.h"
#include "mixgemm/gemm.h"
#include "mixgemm/prepack.h"
#include "mixgemm/quantize.h"
#include "mixgemm/reference.h"
#include "mixgemm/scalar_type.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using mixgemm::Error;
using mixgemm::ErrorCode;
using mixgemm::ScalarType;

using Array = nb::ndarray<>;
using OptArray = std::optional<Array>;

PyObject* g_error = nullptr;
PyObject* g_invalid = nullptr;
PyObject* g_not_supported = nullptr;
PyObject* g_cuda_error = nullptr;

[[noreturn]] void invalid(const std::string& where, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, "mixgemm." + where + ": " + what);
}

ScalarType type_of(const std::string& name) { return ScalarType::from_name(name); }

int64_t elem_bytes(ScalarType t) { return (t.size_bits() + 7) / 8; }

bool is_cpu(const Array& x) { return x.device_type() == nb::device::cpu::value; }
bool is_cuda(const Array& x) {
  return x.device_type() == nb::device::cuda::value || x.device_type() == nb::device::cuda_managed::value;
}

std::string shape_str(const Array& x) {
  std::ostringstream s;
  s << "(";
  for (size_t i = 0; i < x.ndim(); ++i) s << (i ? ", " : "") << x.shape(i);
  s << (x.ndim() == 1 ? ",)" : ")");
  return s.str();
}

// Row-major without gaps.
bool contiguous(const Array& x) {
  int64_t expect = 1;
  for (size_t i = x.ndim(); i-- > 0;) {
    if (x.shape(i) != 1 && x.stride(i) != expect) return false;
    expect *= static_cast<int64_t>(x.shape(i));
  }
  return true;
}

void require_device(const Array& x, bool cuda, const std::string& where, const char* name) {
  if (cuda && !is_cuda(x))
    invalid(where, std::string(name) + " must be a GPU (CUDA) array; got device type " +
                       std::to_string(x.device_type()));
  if (!cuda && !is_cpu(x))
    invalid(where, std::string(name) + " must be a CPU array (NumPy or a CPU tensor); got device type " +
                       std::to_string(x.device_type()));
}

// A contiguous array of `count` elements of `bytes` bytes each (any rank, any dtype of that
// size: f16 may arrive as float16 or uint16 bits, e4m3 as float8 or uint8).
const void* dense(const Array& x, int64_t count, int64_t bytes, bool cuda, const std::string& where,
                  const char* name) {
  require_device(x, cuda, where, name);
  if (static_cast<int64_t>(x.itemsize()) != bytes)
    invalid(where, std::string(name) + " has " + std::to_string(x.itemsize()) + "-byte elements; expected " +
                       std::to_string(bytes) + "-byte elements");
  if (!contiguous(x)) invalid(where, std::string(name) + " must be contiguous (row-major)");
  if (static_cast<int64_t>(x.size()) != count)
    invalid(where, std::string(name) + " has " + std::to_string(x.size()) + " elements, shape " + shape_str(x) +
                       "; expected " + std::to_string(count));
  return x.data();
}

// A 2-D matrix [rows][cols] with unit column stride; returns its row stride in elements.
int64_t matrix(const Array& x, int64_t bytes, bool cuda, const std::string& where, const char* name,
               int64_t rows = -1, int64_t cols = -1) {
  require_device(x, cuda, where, name);
  if (x.ndim() != 2) invalid(where, std::string(name) + " must be 2-D; got shape " + shape_str(x));
  if (static_cast<int64_t>(x.itemsize()) != bytes)
    invalid(where, std::string(name) + " has " + std::to_string(x.itemsize()) + "-byte elements; expected " +
                       std::to_string(bytes) + "-byte elements");
  if ((rows >= 0 && static_cast<int64_t>(x.shape(0)) != rows) ||
      (cols >= 0 && static_cast<int64_t>(x.shape(1)) != cols))
    invalid(where, std::string(name) + " has shape " + shape_str(x) + "; expected (" + std::to_string(rows) +
                       ", " + std::to_string(cols) + ")");
  if (x.shape(1) > 1 && x.stride(1) != 1)
    invalid(where, std::string(name) + " must have unit stride along its last dimension");
  return x.shape(0) > 1 ? x.stride(0) : static_cast<int64_t>(x.shape(1));
}

// Host result arrays: NumPy arrays owning a std::vector.
template <class T>
nb::ndarray<nb::numpy, T> to_numpy(std::vector<T>&& v, std::vector<size_t> shape) {
  auto* p = new std::vector<T>(std::move(v));
  nb::capsule owner(p, [](void* x) noexcept { delete static_cast<std::vector<T>*>(x); });
  return nb::ndarray<nb::numpy, T>(p->data(), shape.size(), shape.data(), owner);
}

// The current CUDA device, switched to `device` for one scope when it differs.
struct DeviceScope {
  int previous = -1;
  explicit DeviceScope(const Array& x) {
    if (!is_cuda(x)) return;
    int cur = 0;
    if (cudaGetDevice(&cur) != cudaSuccess) {
      (void)cudaGetLastError();
      return;  // the library reports the missing device
    }
    if (cur != x.device_id() && cudaSetDevice(x.device_id()) == cudaSuccess) previous = cur;
  }
  ~DeviceScope() {
    if (previous >= 0) (void)cudaSetDevice(previous);
  }
};

cudaStream_t stream_of(uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

// AWQ's packed int32 words (8 columns each) <-> one uint8 per element, for qweight [K][N] and
// qzeros [G][N] alike: `pack(values, rows, N)` / `unpack(words, rows, N)` of the library.
template <class Pack>
auto awq_pack(const char* where, const char* name, Pack pack) {
  return [=](const Array& a) {
    matrix(a, 1, false, where, name);
    const int64_t rows = static_cast<int64_t>(a.shape(0)), N = static_cast<int64_t>(a.shape(1));
    auto v = pack(static_cast<const uint8_t*>(dense(a, rows * N, 1, false, where, name)), rows, N);
    return to_numpy(std::move(v), {static_cast<size_t>(rows), static_cast<size_t>(N / 8)});
  };
}
template <class Unpack>
auto awq_unpack(const char* where, const char* name, Unpack unpack) {
  return [=](const Array& a, int64_t rows, int64_t N) {
    const void* p = dense(a, rows * (N / 8), 4, false, where, name);
    auto v = unpack(static_cast<const int32_t*>(p), rows, N);
    return to_numpy(std::move(v), {static_cast<size_t>(rows), static_cast<size_t>(N)});
  };
}

template <class T = void>
const T* cptr(uintptr_t p) {
  return reinterpret_cast<const T*>(p);
}

mixgemm::TypeConfig type_config(const std::string& a, const std::string& b, const std::string& scale,
                                 bool has_zeros, const std::string& out) {
  return mixgemm::TypeConfig{type_of(a), type_of(b), type_of(scale), has_zeros, type_of(out)};
}

mixgemm::GemmProblem problem_of(int64_t M, int64_t N, int64_t K, const std::string& a, const std::string& b,
                                const std::string& scale, bool has_zeros, const std::string& out,
                                int64_t group_size) {
  mixgemm::GemmProblem p;
  p.M = M;
  p.N = N;
  p.K = K;
  p.types = type_config(a, b, scale, has_zeros, out);
  p.group_size = group_size;
  return p;
}

mixgemm::WeightFormat format_of(const std::string& f) {
  if (f == "unpacked") return mixgemm::WeightFormat::kUnpacked;
  if (f == "gptq") return mixgemm::WeightFormat::kGptq;
  if (f == "awq") return mixgemm::WeightFormat::kAwq;
  invalid("prepack", "format='" + f + "' is unknown; accepted: 'unpacked', 'gptq', 'awq'");
}

// Elements of the source array of a prepack in `format` (uint8 [K][N], int32 [K/8][N], int32 [K][N/8]).
std::pair<int64_t, int64_t> prepack_source(mixgemm::WeightFormat f, int64_t K, int64_t N) {
  if (f == mixgemm::WeightFormat::kUnpacked) return {K * N, 1};
  if (f == mixgemm::WeightFormat::kGptq) return {(K / 8) * N, 4};
  return {K * (N / 8), 4};
}

// ---- a QuantizedWeight crosses as a tuple of NumPy arrays ---------------------------------
using QwTuple = std::tuple<nb::ndarray<nb::numpy, uint8_t>, std::optional<nb::ndarray<nb::numpy, uint8_t>>,
                           std::optional<nb::ndarray<nb::numpy, uint8_t>>,
                           std::optional<nb::ndarray<nb::numpy, float>>>;

QwTuple to_tuple(mixgemm::QuantizedWeight&& qw) {
  const size_t K = static_cast<size_t>(qw.K), N = static_cast<size_t>(qw.N);
  const size_t G = static_cast<size_t>(qw.groups());
  QwTuple t;
  std::get<0>(t) = to_numpy(std::move(qw.q), {K, N});
  if (!qw.group_scales.empty()) {
    const size_t eb = qw.group_scales.size() / (G * N);  // bytes per scale
    std::get<1>(t) = to_numpy(std::move(qw.group_scales), {G, N * eb});
  }
  if (!qw.zeros.empty()) std::get<2>(t) = to_numpy(std::move(qw.zeros), {G, N});
  if (!qw.channel_scales.empty()) std::get<3>(t) = to_numpy(std::move(qw.channel_scales), {N});
  return t;
}

mixgemm::QuantizedWeight from_arrays(const Array& q, const std::string& type, int64_t group_size,
                                     const std::string& scale_type, const OptArray& group_scales,
                                     const OptArray& zeros, const OptArray& channel_scales, const char* where) {
  mixgemm::QuantizedWeight qw;
  matrix(q, 1, false, where, "q");
  qw.K = static_cast<int64_t>(q.shape(0));
  qw.N = static_cast<int64_t>(q.shape(1));
  qw.type = type_of(type);
  qw.group_size = group_size;
  qw.scale_type = type_of(scale_type);
  const auto* qp = static_cast<const uint8_t*>(dense(q, qw.K * qw.N, 1, false, where, "q"));
  qw.q.assign(qp, qp + qw.K * qw.N);
  if (group_size < 0 || (group_size > 0 && qw.K % group_size != 0))
    invalid(where, "group_size=" + std::to_string(group_size) + " must be 0 or a divisor of K=" +
                       std::to_string(qw.K));
  const int64_t G = qw.groups();
  if (group_scales) {
    const int64_t eb = elem_bytes(qw.scale_type);
    const auto* p = static_cast<const uint8_t*>(dense(*group_scales, G * qw.N, eb, false, where, "group_scales"));
    qw.group_scales.assign(p, p + G * qw.N * eb);
  }
  if (zeros) {
    const auto* p = static_cast<const uint8_t*>(dense(*zeros, G * qw.N, 1, false, where, "zeros"));
    qw.zeros.assign(p, p + G * qw.N);
  }
  if (channel_scales) {
    const auto* p = static_cast<const float*>(dense(*channel_scales, qw.N, 4, false, where, "channel_scales"));
    qw.channel_scales.assign(p, p + qw.N);
  }
  return qw;
}

// ---- gemm ------------------------------------------------------------------------------------
// The operands gemm and gemm_partial_sums share, from raw pointers.
mixgemm::GemmArgs input_args(int64_t M, int64_t N, int64_t K, const std::string& a_type, const std::string& b_type,
                             const std::string& scale_type, bool has_zeros, const std::string& out_type,
                             int64_t group_size, uintptr_t a, int64_t lda, uintptr_t b, uintptr_t group_scales,
                             uintptr_t group_zeros, const std::string& schedule, uintptr_t stream) {
  mixgemm::GemmArgs args;
  args.problem = problem_of(M, N, K, a_type, b_type, scale_type, has_zeros, out_type, group_size);
  args.a = cptr(a);
  args.lda = lda;
  args.b = cptr(b);
  args.group_scales = cptr(group_scales);
  args.group_zeros = cptr(group_zeros);
  args.schedule = schedule;
  args.stream = stream_of(stream);
  return args;
}

void gemm_ptr(int64_t M, int64_t N, int64_t K, const std::string& a_type, const std::string& b_type,
              const std::string& scale_type, bool has_zeros, const std::string& out_type, int64_t group_size,
              uintptr_t a, int64_t lda, uintptr_t b, uintptr_t group_scales, uintptr_t group_zeros,
              uintptr_t channel_scales, uintptr_t token_scales, uintptr_t bias, uintptr_t out, int64_t ldo,
              uintptr_t workspace, size_t workspace_bytes, const std::string& schedule, uintptr_t stream,
              bool pdl, int sm_count) {
  mixgemm::GemmArgs args = input_args(M, N, K, a_type, b_type, scale_type, has_zeros, out_type, group_size, a, lda, b,
                                      group_scales, group_zeros, schedule, stream);
  args.sm_count = sm_count;
  args.channel_scales = cptr<float>(channel_scales);
  args.token_scales = cptr<float>(token_scales);
  args.bias = cptr(bias);
  args.out = reinterpret_cast<void*>(out);
  args.ldo = ldo;
  args.workspace = reinterpret_cast<void*>(workspace);
  args.workspace_bytes = workspace_bytes;
  args.programmatic_dependent_launch = pdl;
  mixgemm::gemm(args);
}

// gemm_partial_sums with raw pointers (mixgemm.torch's op): parts = [S, M, N] f32 (s32 for s8).
void gemm_partial_sums_ptr(int64_t M, int64_t N, int64_t K, const std::string& a_type, const std::string& b_type,
                           const std::string& scale_type, bool has_zeros, const std::string& out_type,
                           int64_t group_size, uintptr_t a, int64_t lda, uintptr_t b, uintptr_t group_scales,
                           uintptr_t group_zeros, uintptr_t parts, const std::string& schedule, uintptr_t stream,
                           bool pdl, int sm_count) {
  mixgemm::GemmArgs args = input_args(M, N, K, a_type, b_type, scale_type, has_zeros, out_type, group_size, a, lda, b,
                                      group_scales, group_zeros, schedule, stream);
  args.sm_count = sm_count;
  args.programmatic_dependent_launch = pdl;
  mixgemm::gemm_partial_sums(args, reinterpret_cast<void*>(parts));
}

void gemm_arrays(const Array& a, const Array& b, const Array& out, const Array& workspace, int64_t N,
                 const std::string& a_type, const std::string& b_type, const std::string& scale_type,
                 bool has_zeros, const std::string& out_type, int64_t group_size, const OptArray& group_scales,
                 const OptArray& group_zeros, const OptArray& channel_scales, const OptArray& token_scales,
                 const OptArray& bias, const std::string& schedule, uintptr_t stream, int sm_count) {
  const std::string w = "gemm";
  const ScalarType at = type_of(a_type), bt = type_of(b_type), st = type_of(scale_type), ot = type_of(out_type);
  const int64_t lda = matrix(a, elem_bytes(at), true, w, "a");
  const int64_t M = static_cast<int64_t>(a.shape(0)), K = static_cast<int64_t>(a.shape(1));
  const int64_t ldo = matrix(out, elem_bytes(ot), true, w, "out", M, N);
  require_device(b, true, w, "b");
  if (!contiguous(b)) invalid(w, "b (the prepacked weights) must be contiguous");
  if (K > 0 && N > 0 && static_cast<size_t>(b.nbytes()) < mixgemm::prepacked_size(K, N, bt))
    invalid(w, "b holds " + std::to_string(b.nbytes()) + " bytes; a prepacked " + std::to_string(K) + " x " +
                   std::to_string(N) + " " + b_type + " weight needs " +
                   std::to_string(mixgemm::prepacked_size(K, N, bt)));
  require_device(workspace, true, w, "workspace");
  const int64_t G = group_size > 0 && K % group_size == 0 ? K / group_size : 1;
  const void* gs = group_scales ? dense(*group_scales, G * N, elem_bytes(st), true, w, "group_scales") : nullptr;
  // Prepacked zero points: the scale type's width for 16-bit and e4m3 activations, u8 for s8.
  const int64_t zb = at == mixgemm::types::s8 ? 1 : elem_bytes(group_size > 0 ? st : mixgemm::types::f16);
  const void* gz = group_zeros ? dense(*group_zeros, G * N, zb, true, w, "group_zeros") : nullptr;
  const void* ch = channel_scales ? dense(*channel_scales, N, 4, true, w, "channel_scales") : nullptr;
  const void* tok = token_scales ? dense(*token_scales, M, 4, true, w, "token_scales") : nullptr;
  const void* bi = bias ? dense(*bias, N, elem_bytes(ot), true, w, "bias") : nullptr;
  for (const Array* x : {&b, &out, &workspace})
    if (x->device_id() != a.device_id())
      invalid(w, "every array must be on a's device (cuda:" + std::to_string(a.device_id()) + ")");
  DeviceScope scope(a);
  nb::gil_scoped_release release;
  gemm_ptr(M, N, K, a_type, b_type, scale_type, has_zeros, out_type, group_size,
           reinterpret_cast<uintptr_t>(a.data()), lda, reinterpret_cast<uintptr_t>(b.data()),
           reinterpret_cast<uintptr_t>(gs), reinterpret_cast<uintptr_t>(gz), reinterpret_cast<uintptr_t>(ch),
           reinterpret_cast<uintptr_t>(tok), reinterpret_cast<uintptr_t>(bi), reinterpret_cast<uintptr_t>(out.data()),
           ldo, reinterpret_cast<uintptr_t>(workspace.data()), workspace.nbytes(), schedule, stream, false, sm_count);
}

// ---- activation quantization ---------------------------------------------------------------
void quantize_activations_ptr(int64_t M, int64_t K, uintptr_t a, const std::string& a_type, int64_t lda,
                              const std::string& to, uintptr_t q, int64_t ldq, uintptr_t token_scales,
                              uintptr_t static_scale, uintptr_t stream) {
  mixgemm::ActivationQuantArgs args;
  args.M = M;
  args.K = K;
  args.a = cptr(a);
  args.a_type = type_of(a_type);
  args.lda = lda;
  args.to = type_of(to);
  args.q = reinterpret_cast<void*>(q);
  args.ldq = ldq;
  args.token_scales = reinterpret_cast<float*>(token_scales);
  args.static_scale = cptr<float>(static_scale);
  args.stream = stream_of(stream);
  mixgemm::quantize_activations(args);
}

void quantize_activations_device(const Array& a, const std::string& a_type, const std::string& to, const Array& q,
                                 const Array& token_scales, const OptArray& static_scale, uintptr_t stream) {
  const std::string w = "quantize_activations";
  const int64_t lda = matrix(a, elem_bytes(type_of(a_type)), true, w, "a");
  const int64_t M = static_cast<int64_t>(a.shape(0)), K = static_cast<int64_t>(a.shape(1));
  const int64_t ldq = matrix(q, 1, true, w, "q", M, K);
  const void* tok = dense(token_scales, M, 4, true, w, "token_scales");
  const void* ss = static_scale ? dense(*static_scale, 1, 4, true, w, "static_scale") : nullptr;
  DeviceScope scope(a);
  nb::gil_scoped_release release;
  quantize_activations_ptr(M, K, reinterpret_cast<uintptr_t>(a.data()), a_type, lda, to,
                           reinterpret_cast<uintptr_t>(q.data()), ldq, reinterpret_cast<uintptr_t>(tok),
                           reinterpret_cast<uintptr_t>(ss), stream);
}

std::tuple<nb::ndarray<nb::numpy, uint8_t>, nb::ndarray<nb::numpy, float>> quantize_activations_cpu(
    const Array& a, const std::string& a_type, const std::string& to, std::optional<float> static_scale) {
  const std::string w = "quantize_activations";
  const ScalarType at = type_of(a_type);
  const int64_t lda = matrix(a, elem_bytes(at), false, w, "a");
  const int64_t M = static_cast<int64_t>(a.shape(0)), K = static_cast<int64_t>(a.shape(1));
  mixgemm::QuantizedActivations qa;
  {
    nb::gil_scoped_release release;
    qa = static_scale ? mixgemm::quantize_activations_static(a.data(), at, M, K, lda, type_of(to), *static_scale)
                      : mixgemm::quantize_activations_dynamic(a.data(), at, M, K, lda, type_of(to));
  }
  return {to_numpy(std::move(qa.q), {static_cast<size_t>(M), static_cast<size_t>(K)}),
          to_numpy(std::move(qa.token_scales), {static_cast<size_t>(M)})};
}

// ---- reference -----------------------------------------------------------------------------
nb::ndarray<nb::numpy, uint16_t> reference_gemm(const Array& a, const Array& q, int64_t N, const std::string& a_type,
                                                const std::string& b_type, const std::string& scale_type,
                                                bool has_zeros, const std::string& out_type, int64_t group_size,
                                                const OptArray& group_scales, const OptArray& zeros,
                                                const OptArray& channel_scales, const OptArray& token_scales,
                                                const OptArray& bias, int threads) {
  const std::string w = "reference_gemm";
  const ScalarType at = type_of(a_type), st = type_of(scale_type), ot = type_of(out_type);
  const int64_t lda = matrix(a, elem_bytes(at), false, w, "a");
  const int64_t M = static_cast<int64_t>(a.shape(0)), K = static_cast<int64_t>(a.shape(1));
  matrix(q, 1, false, w, "q", K, N);
  const int64_t G = group_size > 0 && K % group_size == 0 ? K / group_size : 1;
  mixgemm::ReferenceArgs r;
  r.problem = problem_of(M, N, K, a_type, b_type, scale_type, has_zeros, out_type, group_size);
  r.a = a.data();
  r.lda = lda;
  r.q = static_cast<const uint8_t*>(dense(q, K * N, 1, false, w, "q"));
  r.group_scales = group_scales ? dense(*group_scales, G * N, elem_bytes(st), false, w, "group_scales") : nullptr;
  r.zeros = zeros ? static_cast<const uint8_t*>(dense(*zeros, G * N, 1, false, w, "zeros")) : nullptr;
  r.channel_scales =
      channel_scales ? static_cast<const float*>(dense(*channel_scales, N, 4, false, w, "channel_scales")) : nullptr;
  r.token_scales =
      token_scales ? static_cast<const float*>(dense(*token_scales, M, 4, false, w, "token_scales")) : nullptr;
  r.bias = bias ? dense(*bias, N, elem_bytes(ot), false, w, "bias") : nullptr;
  std::vector<uint16_t> out(static_cast<size_t>(M * N));
  r.out = out.data();
  r.ldo = N;
  {
    nb::gil_scoped_release release;
    mixgemm::reference_gemm(r, threads);
  }
  return to_numpy(std::move(out), {static_cast<size_t>(M), static_cast<size_t>(N)});
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const Error& e) {
    PyObject* t = e.code() == ErrorCode::kInvalidArgument ? g_invalid
                  : e.code() == ErrorCode::kNotSupported  ? g_not_supported
                                                          : g_cuda_error;
    PyErr_SetString(t, e.what());
  }
}

PyObject* new_exception(const char* name, const char* doc, PyObject* bases) {
  PyObject* t = PyErr_NewExceptionWithDoc(name, doc, bases, nullptr);
  if (!t) throw nb::python_error();
  return t;
}

}  // namespace

namespace {

// Diagnostics for crashes inside the extension: with MIXGEMM_PY_BACKTRACE=1 a SIGSEGV /
// SIGABRT prints the native stack (addresses + the module's load address, for addr2line)
// to stderr before the process dies. Off by default; Python's faulthandler shows only the
// Python frames.
void native_backtrace(int sig) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  const char head[] = "\n[mixgemm] native stack at signal:\n";
  (void)!write(2, head, sizeof(head) - 1);
  backtrace_symbols_fd(frames, n, 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

void maybe_install_backtrace() {
  const char* v = std::getenv("MIXGEMM_PY_BACKTRACE");
  if (v && std::strcmp(v, "1") == 0) {
    signal(SIGSEGV, native_backtrace);
    signal(SIGABRT, native_backtrace);
  }
}

}  // namespace

NB_MODULE(_C, m) {
  m.doc() = "mixgemm's C++ host API (nanobind). Use the wrappers in the mixgemm package.";
  maybe_install_backtrace();

  g_error = new_exception("mixgemm.MixgemmError", "An error reported by the mixgemm library.", PyExc_RuntimeError);
  PyObject* b_inv = PyTuple_Pack(2, g_error, PyExc_ValueError);
  PyObject* b_ns = PyTuple_Pack(2, g_error, PyExc_NotImplementedError);
  g_invalid = new_exception("mixgemm.InvalidArgumentError", "An argument that can never be valid.", b_inv);
  g_not_supported =
      new_exception("mixgemm.NotSupportedError", "Valid in the semantics, but no kernel implements it.", b_ns);
  g_cuda_error = new_exception("mixgemm.CudaError", "The CUDA runtime failed (no device, launch error).", g_error);
  Py_DECREF(b_inv);
  Py_DECREF(b_ns);
  m.attr("MixgemmError") = nb::handle(g_error);
  m.attr("InvalidArgumentError") = nb::handle(g_invalid);
  m.attr("NotSupportedError") = nb::handle(g_not_supported);
  m.attr("CudaError") = nb::handle(g_cuda_error);
  m.attr("PREPACKED_LAYOUT_VERSION") = mixgemm::kPrepackedLayoutVersion;
  nb::register_exception_translator(translate);

  // ---- types ----
  m.def(
      "scalar_type_info",
      [](const std::string& name) {
        const ScalarType t = type_of(name);
        nb::dict d;
        d["name"] = t.name();
        d["bits"] = t.size_bits();
        d["is_float"] = t.is_float();
        d["is_signed"] = t.is_signed;
        d["bias"] = t.bias;
        if (t.is_integer()) {
          d["min"] = t.min_value();
          d["max"] = t.max_value();
        }
        return d;
      },
      "name"_a, "Facts about a scalar type name ('f16', 'u4b8', ...); raises for an unknown name.");

  // ---- prepack ----
  m.def(
      "prepacked_size",
      [](int64_t K, int64_t N, const std::string& b_type) { return mixgemm::prepacked_size(K, N, type_of(b_type)); },
      "K"_a, "N"_a, "b_type"_a);
  m.def(
      "check_prepack_shape",
      [](int64_t K, int64_t N, const std::string& b_type, const std::string& a_type) {
        mixgemm::check_prepack_shape(K, N, type_of(b_type), type_of(a_type));
      },
      "K"_a, "N"_a, "b_type"_a, "a_type"_a);
  m.def(
      "prepack_cpu",
      [](const Array& src, const std::string& format, int64_t K, int64_t N, const std::string& b_type,
         const std::string& a_type) {
        const auto f = format_of(format);
        const ScalarType bt = type_of(b_type), at = type_of(a_type);
        mixgemm::check_prepack_shape(K, N, bt, at);
        const auto [count, bytes] = prepack_source(f, K, N);
        const void* s = dense(src, count, bytes, false, "prepack", "src");
        std::vector<uint8_t> dst(mixgemm::prepacked_size(K, N, bt));
        {
          nb::gil_scoped_release release;
          mixgemm::prepack_cpu(s, f, K, N, bt, at, dst.data());
        }
        const size_t n = dst.size();
        return to_numpy(std::move(dst), {n});
      },
      "src"_a, "format"_a, "K"_a, "N"_a, "b_type"_a, "a_type"_a);
  m.def(
      "unpack_cpu",
      [](const Array& src, int64_t K, int64_t N, const std::string& b_type, const std::string& a_type) {
        const ScalarType bt = type_of(b_type), at = type_of(a_type);
        mixgemm::check_prepack_shape(K, N, bt, at);
        const void* s = dense(src, static_cast<int64_t>(mixgemm::prepacked_size(K, N, bt)), 1, false, "unpack", "src");
        std::vector<uint8_t> q(static_cast<size_t>(K * N));
        {
          nb::gil_scoped_release release;
          mixgemm::unpack_cpu(static_cast<const uint8_t*>(s), K, N, bt, at, q.data());
        }
        return to_numpy(std::move(q), {static_cast<size_t>(K), static_cast<size_t>(N)});
      },
      "src"_a, "K"_a, "N"_a, "b_type"_a, "a_type"_a);
  m.def(
      "prepack_device",
      [](const Array& src, const std::string& format, int64_t K, int64_t N, const std::string& b_type,
         const std::string& a_type, const Array& dst, uintptr_t stream) {
        const auto f = format_of(format);
        const ScalarType bt = type_of(b_type), at = type_of(a_type);
        mixgemm::check_prepack_shape(K, N, bt, at);
        const auto [count, bytes] = prepack_source(f, K, N);
        const void* s = dense(src, count, bytes, true, "prepack", "src");
        void* d = const_cast<void*>(
            dense(dst, static_cast<int64_t>(mixgemm::prepacked_size(K, N, bt)), 1, true, "prepack", "dst"));
        if (src.device_id() != dst.device_id()) invalid("prepack", "src and dst must be on one device");
        DeviceScope scope(src);
        nb::gil_scoped_release release;
        mixgemm::prepack(s, f, K, N, bt, at, d, stream_of(stream));
      },
      "src"_a, "format"_a, "K"_a, "N"_a, "b_type"_a, "a_type"_a, "dst"_a, "stream"_a);
  m.def(
      "prepack_zeros_cpu",
      [](const Array& z, const OptArray& scales, const std::string& a_type, const std::string& scale_type) {
        const std::string w = "prepack_zeros";
        matrix(z, 1, false, w, "zeros");
        const int64_t G = static_cast<int64_t>(z.shape(0)), N = static_cast<int64_t>(z.shape(1));
        const auto* zp = static_cast<const uint8_t*>(dense(z, G * N, 1, false, w, "zeros"));
        const ScalarType st = type_of(scale_type);
        const void* sp = scales ? dense(*scales, G * N, elem_bytes(st), false, w, "scales") : nullptr;
        auto out = mixgemm::prepack_zeros_cpu(zp, sp, G, N, type_of(a_type), st);
        const size_t eb = out.size() / static_cast<size_t>(G * N);
        return to_numpy(std::move(out), {static_cast<size_t>(G), static_cast<size_t>(N) * eb});
      },
      "zeros"_a, "scales"_a.none(), "a_type"_a, "scale_type"_a);

  // ---- weight quantizers (CPU) ----
  m.def(
      "quantize_weights_rtn",
      [](const Array& w, const std::string& w_type, const std::string& type, int64_t group_size,
         const std::string& scale_type) {
        const ScalarType wt = type_of(w_type);
        matrix(w, elem_bytes(wt), false, "quantize_weights", "w");
        const int64_t K = static_cast<int64_t>(w.shape(0)), N = static_cast<int64_t>(w.shape(1));
        const void* p = dense(w, K * N, elem_bytes(wt), false, "quantize_weights", "w");
        mixgemm::QuantizedWeight qw;
        {
          nb::gil_scoped_release release;
          qw = mixgemm::quantize_weights_rtn(p, wt, K, N, type_of(type), group_size, type_of(scale_type));
        }
        return to_tuple(std::move(qw));
      },
      "w"_a, "w_type"_a, "type"_a, "group_size"_a, "scale_type"_a);
  m.def(
      "quantize_weights_qqq",
      [](const Array& w, const std::string& w_type, int64_t group_size) {
        const ScalarType wt = type_of(w_type);
        matrix(w, elem_bytes(wt), false, "quantize_weights", "w");
        const int64_t K = static_cast<int64_t>(w.shape(0)), N = static_cast<int64_t>(w.shape(1));
        const void* p = dense(w, K * N, elem_bytes(wt), false, "quantize_weights", "w");
        mixgemm::QuantizedWeight qw;
        {
          nb::gil_scoped_release release;
          qw = mixgemm::quantize_weights_qqq(p, wt, K, N, group_size);
        }
        return to_tuple(std::move(qw));
      },
      "w"_a, "w_type"_a, "group_size"_a);
  m.def(
      "rescale_for_fp8",
      [](const Array& q, const std::string& type, int64_t group_size, const std::string& scale_type,
         const OptArray& group_scales, const OptArray& zeros, const OptArray& channel_scales) {
        auto qw = from_arrays(q, type, group_size, scale_type, group_scales, zeros, channel_scales, "rescale_for_fp8");
        return to_tuple(mixgemm::rescale_for_fp8(qw));
      },
      "q"_a, "type"_a, "group_size"_a, "scale_type"_a, "group_scales"_a.none(), "zeros"_a.none(),
      "channel_scales"_a.none());
  m.def(
      "dequantize_weights",
      [](const Array& q, const std::string& type, int64_t group_size, const std::string& scale_type,
         const OptArray& group_scales, const OptArray& zeros, const OptArray& channel_scales,
         const std::string& a_type) {
        auto qw =
            from_arrays(q, type, group_size, scale_type, group_scales, zeros, channel_scales, "dequantize_weights");
        auto w = mixgemm::dequantize_weights(qw, type_of(a_type));
        return to_numpy(std::move(w), {static_cast<size_t>(qw.K), static_cast<size_t>(qw.N)});
      },
      "q"_a, "type"_a, "group_size"_a, "scale_type"_a, "group_scales"_a.none(), "zeros"_a.none(),
      "channel_scales"_a.none(), "a_type"_a);

  // ---- activations ----
  m.def("quantize_activations_cpu", &quantize_activations_cpu, "a"_a, "a_type"_a, "to"_a,
        "static_scale"_a.none() = nb::none());
  m.def("quantize_activations_device", &quantize_activations_device, "a"_a, "a_type"_a, "to"_a, "q"_a,
        "token_scales"_a, "static_scale"_a.none(), "stream"_a);
  m.def("quantize_activations_ptr", &quantize_activations_ptr, "M"_a, "K"_a, "a"_a, "a_type"_a, "lda"_a, "to"_a,
        "q"_a, "ldq"_a, "token_scales"_a, "static_scale"_a, "stream"_a);

  // ---- gemm ----
  m.def(
      "workspace_size",
      [](int64_t M, int64_t N, int64_t K, const std::string& a, const std::string& b, const std::string& scale,
         bool has_zeros, const std::string& out, int64_t group_size, int sm_count) {
        return mixgemm::workspace_size(problem_of(M, N, K, a, b, scale, has_zeros, out, group_size), sm_count);
      },
      "M"_a, "N"_a, "K"_a, "a_type"_a, "b_type"_a, "scale_type"_a, "has_zeros"_a, "out_type"_a, "group_size"_a,
      "sm_count"_a = 0);
  m.def(
      "supported_schedules",
      [](const std::string& a, const std::string& b, const std::string& scale, bool has_zeros,
         const std::string& out) { return mixgemm::supported_schedules(type_config(a, b, scale, has_zeros, out)); },
      "a_type"_a, "b_type"_a, "scale_type"_a, "has_zeros"_a, "out_type"_a);
  // choose_schedule and describe_plan: the same problem arguments, a schedule string back.
  const auto def_plan = [&m](const char* name, std::string (*fn)(const mixgemm::GemmProblem&, int)) {
    m.def(
        name,
        [fn](int64_t M, int64_t N, int64_t K, const std::string& a, const std::string& b, const std::string& scale,
             bool has_zeros, const std::string& out, int64_t group_size, int sm_count) {
          return fn(problem_of(M, N, K, a, b, scale, has_zeros, out, group_size), sm_count);
        },
        "M"_a, "N"_a, "K"_a, "a_type"_a, "b_type"_a, "scale_type"_a, "has_zeros"_a, "out_type"_a, "group_size"_a,
        "sm_count"_a);
  };
  def_plan("choose_schedule", &mixgemm::choose_schedule);
  def_plan("describe_plan", &mixgemm::describe_plan);
  m.def("gemm_ptr", &gemm_ptr, "M"_a, "N"_a, "K"_a, "a_type"_a, "b_type"_a, "scale_type"_a, "has_zeros"_a,
        "out_type"_a, "group_size"_a, "a"_a, "lda"_a, "b"_a, "group_scales"_a, "group_zeros"_a, "channel_scales"_a,
        "token_scales"_a, "bias"_a, "out"_a, "ldo"_a, "workspace"_a, "workspace_bytes"_a, "schedule"_a, "stream"_a,
        "pdl"_a = false, "sm_count"_a = 0, nb::call_guard<nb::gil_scoped_release>());
  m.def(
      "partial_sums_count",
      [](int64_t M, int64_t N, int64_t K, const std::string& a, const std::string& b, const std::string& scale,
         bool has_zeros, const std::string& out, int64_t group_size, const std::string& schedule, int sm_count) {
        return mixgemm::partial_sums_count(problem_of(M, N, K, a, b, scale, has_zeros, out, group_size), schedule,
                                           sm_count);
      },
      "M"_a, "N"_a, "K"_a, "a_type"_a, "b_type"_a, "scale_type"_a, "has_zeros"_a, "out_type"_a, "group_size"_a,
      "schedule"_a = "", "sm_count"_a = 0);
  m.def("gemm_partial_sums_ptr", &gemm_partial_sums_ptr, "M"_a, "N"_a, "K"_a, "a_type"_a, "b_type"_a,
        "scale_type"_a, "has_zeros"_a, "out_type"_a, "group_size"_a, "a"_a, "lda"_a, "b"_a, "group_scales"_a,
        "group_zeros"_a, "parts"_a, "schedule"_a, "stream"_a, "pdl"_a = false, "sm_count"_a = 0,
        nb::call_guard<nb::gil_scoped_release>());
  m.def("gemm_arrays", &gemm_arrays, "a"_a, "b"_a, "out"_a, "workspace"_a, "N"_a, "a_type"_a, "b_type"_a,
        "scale_type"_a, "has_zeros"_a, "out_type"_a, "group_size"_a, "group_scales"_a.none(), "group_zeros"_a.none(),
        "channel_scales"_a.none(), "token_scales"_a.none(), "bias"_a.none(), "schedule"_a, "stream"_a,
        "sm_count"_a = 0);
  m.def("reference_gemm", &reference_gemm, "a"_a, "q"_a, "N"_a, "a_type"_a, "b_type"_a, "scale_type"_a,
        "has_zeros"_a, "out_type"_a, "group_size"_a, "group_scales"_a.none(), "zeros"_a.none(),
        "channel_scales"_a.none(), "token_scales"_a.none(), "bias"_a.none(), "threads"_a = 0);

  // ---- checkpoint formats (CPU) ----
  m.def(
      "gptq_pack_qweight",
      [](const Array& q, int bits) {
        matrix(q, 1, false, "gptq_pack_qweight", "q");
        const int64_t K = static_cast<int64_t>(q.shape(0)), N = static_cast<int64_t>(q.shape(1));
        auto v = mixgemm::gptq_pack_qweight(
            static_cast<const uint8_t*>(dense(q, K * N, 1, false, "gptq_pack_qweight", "q")), K, N, bits);
        return to_numpy(std::move(v), {static_cast<size_t>(K * bits / 32), static_cast<size_t>(N)});
      },
      "q"_a, "bits"_a = 4);
  m.def(
      "gptq_unpack_qweight",
      [](const Array& qweight, int64_t K, int64_t N, int bits) {
        const void* p = dense(qweight, K * bits / 32 * N, 4, false, "gptq_unpack_qweight", "qweight");
        auto v = mixgemm::gptq_unpack_qweight(static_cast<const int32_t*>(p), K, N, bits);
        return to_numpy(std::move(v), {static_cast<size_t>(K), static_cast<size_t>(N)});
      },
      "qweight"_a, "K"_a, "N"_a, "bits"_a = 4);
  m.def(
      "gptq_pack_qzeros",
      [](const Array& z, int bits, const std::string& fmt) {
        matrix(z, 1, false, "gptq_pack_qzeros", "zeros");
        const int64_t G = static_cast<int64_t>(z.shape(0)), N = static_cast<int64_t>(z.shape(1));
        auto v = mixgemm::gptq_pack_qzeros(
            static_cast<const uint8_t*>(dense(z, G * N, 1, false, "gptq_pack_qzeros", "zeros")), G, N, bits,
            fmt == "v2" ? mixgemm::GptqZeroFormat::kV2 : mixgemm::GptqZeroFormat::kV1);
        return to_numpy(std::move(v), {static_cast<size_t>(G), static_cast<size_t>(N * bits / 32)});
      },
      "zeros"_a, "bits"_a = 4, "zero_format"_a = "v1");
  m.def(
      "gptq_unpack_qzeros",
      [](const Array& qzeros, int64_t G, int64_t N, int bits, const std::string& fmt) {
        const void* p = dense(qzeros, G * (N * bits / 32), 4, false, "gptq_unpack_qzeros", "qzeros");
        auto v = mixgemm::gptq_unpack_qzeros(static_cast<const int32_t*>(p), G, N, bits,
                                             fmt == "v2" ? mixgemm::GptqZeroFormat::kV2
                                                         : mixgemm::GptqZeroFormat::kV1);
        return to_numpy(std::move(v), {static_cast<size_t>(G), static_cast<size_t>(N)});
      },
      "qzeros"_a, "G"_a, "N"_a, "bits"_a = 4, "zero_format"_a = "v1");
  m.def(
      "gptq_g_idx_is_trivial",
      [](const Array& g_idx, int64_t group_size) {
        const int64_t K = static_cast<int64_t>(g_idx.size());
        const void* p = dense(g_idx, K, 4, false, "gptq_g_idx_is_trivial", "g_idx");
        return mixgemm::gptq_g_idx_is_trivial(static_cast<const int32_t*>(p), K, group_size);
      },
      "g_idx"_a, "group_size"_a);
  m.def(
      "gptq_act_order",
      [](const Array& g_idx, int64_t G) {
        const int64_t K = static_cast<int64_t>(g_idx.size());
        const void* p = dense(g_idx, K, 4, false, "gptq_act_order", "g_idx");
        auto ao = mixgemm::gptq_act_order(static_cast<const int32_t*>(p), K, G);
        return std::make_tuple(to_numpy(std::move(ao.perm), {static_cast<size_t>(K)}), ao.group_size);
      },
      "g_idx"_a, "G"_a);
  m.def("awq_pack_qweight", awq_pack("awq_pack_qweight", "q", mixgemm::awq_pack_qweight), "q"_a);
  m.def("awq_unpack_qweight", awq_unpack("awq_unpack_qweight", "qweight", mixgemm::awq_unpack_qweight),
        "qweight"_a, "K"_a, "N"_a);
  m.def("awq_pack_qzeros", awq_pack("awq_pack_qzeros", "zeros", mixgemm::awq_pack_qzeros), "zeros"_a);
  m.def("awq_unpack_qzeros", awq_unpack("awq_unpack_qzeros", "qzeros", mixgemm::awq_unpack_qzeros), "qzeros"_a,
        "G"_a, "N"_a);
  m.def(
      "permute_rows",
      [](const Array& src, const Array& perm) {
        const std::string w = "permute_rows";
        matrix(src, static_cast<int64_t>(src.itemsize()), false, w, "src");
        const int64_t K = static_cast<int64_t>(src.shape(0)), N = static_cast<int64_t>(src.shape(1));
        const auto* p = static_cast<const int32_t*>(dense(perm, K, 4, false, w, "perm"));
        std::vector<int32_t> pv(p, p + K);
        const size_t eb = src.itemsize();
        auto v = mixgemm::permute_rows(dense(src, K * N, static_cast<int64_t>(eb), false, w, "src"), eb, K, N, pv);
        return to_numpy(std::move(v), {static_cast<size_t>(K), static_cast<size_t>(N) * eb});
      },
      "src"_a, "perm"_a);
}
