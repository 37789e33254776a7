// test_util.h - helpers shared by the CPU tests.
#pragma once

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

}  // namespace mixgemm::test
