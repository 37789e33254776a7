// check.h - argument checks that throw mixgemm::Error with a message naming
// the argument and what would be accepted.
#pragma once

#include <sstream>
#include <string>

#include "mixgemm/error.h"

namespace mixgemm::core {

// Builds the message in place: MIXGEMM_REQUIRE(cond, "gemm", "group_size=" << g << " ...").
#define MIXGEMM_REQUIRE(cond, where, msg)                                        \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::ostringstream mixgemm_require_os_;                                    \
      mixgemm_require_os_ << "mixgemm::" << where << ": " << msg;                \
      throw ::mixgemm::Error(::mixgemm::ErrorCode::kInvalidArgument,             \
                             mixgemm_require_os_.str());                         \
    }                                                                            \
  } while (0)

#define MIXGEMM_NOT_SUPPORTED(where, msg)                                        \
  do {                                                                           \
    std::ostringstream mixgemm_require_os_;                                      \
    mixgemm_require_os_ << "mixgemm::" << where << ": " << msg;                  \
    throw ::mixgemm::Error(::mixgemm::ErrorCode::kNotSupported,                  \
                           mixgemm_require_os_.str());                           \
  } while (0)

}  // namespace mixgemm::core
