// test_util.h - helpers shared by the CPU tests.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>

#include "mixgemm/error.h"

namespace mixgemm::test {

// The message of the mixgemm::Error that f throws, or "" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// MIXGEMM_TEST_SEED from the environment (a failing test prints it), else `fallback`.
inline uint64_t seed_from_env(uint64_t fallback) {
  const char* env = std::getenv("MIXGEMM_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : fallback;
}

}  // namespace mixgemm::test
