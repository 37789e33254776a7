// print_config.h - the MIXGEMM_PRINT_CONFIG debug switch, read once per process: set (and not
// "0"), gemm() prints each call's schedule and the smallm / sm90 launchers how they split K.
#pragma once

#include <cstdlib>

namespace mixgemm::core {

inline bool print_config_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("MIXGEMM_PRINT_CONFIG");
    return v != nullptr && v[0] != '\0' && v[0] != '0';
  }();
  return on;
}

}  // namespace mixgemm::core
