// env_switch.h - the library's A/B switches in the environment (MIXGEMM_ROW_SPLIT=0, MIXGEMM_SM90_DECODE=0,
// MIXGEMM_SMALLM_DEFER=0, MIXGEMM_SMALLM_CLUSTER=0, MIXGEMM_SM90_EXCHANGE=0, MIXGEMM_SM90_CLUSTER_LAUNCH=2): each
// is on only at exactly one value, and each caller reads it once (a function-local static), so gemm() never
// parses the environment per call.
#pragma once

#include <cstdlib>
#include <cstring>

namespace mixgemm::core {

// Whether the environment variable `name` is set to exactly `value`.
inline bool env_equals(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, value) == 0;
}

}  // namespace mixgemm::core
