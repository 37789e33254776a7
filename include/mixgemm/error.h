// mixgemm/error.h - how mixgemm refuses bad input.
//
// Every public entry point validates its arguments before touching memory.
// A refusal throws mixgemm::Error whose message names the argument and what
// would be accepted, e.g.
//   "mixgemm::gemm: group_size=48 does not divide K=4096; accepted: K (per-channel), 32, 64, 128, 256, or a multiple of 16 dividing K"
// Nothing is written to any output when an Error is thrown.
#pragma once

#include <stdexcept>
#include <string>

namespace mixgemm {

enum class ErrorCode {
  kInvalidArgument,  // a value that can never be valid (null pointer, bad shape, bad type pair)
  kNotSupported,     // valid in the semantics, but no kernel implements it (yet)
  kCudaError,        // the CUDA runtime failed (launch error, no device)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace mixgemm
