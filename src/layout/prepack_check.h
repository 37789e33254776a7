// prepack_check.h - argument checks and source readers shared by the CPU prepack
// (src/layout/prepack_cpu.cpp) and the GPU prepack (src/kernels/prepack/prepack.cu).
#pragma once

#include <cstdint>

#include "mixgemm/layout.h"
#include "mixgemm/prepack.h"
#include "mixgemm/scalar_type.h"

namespace mixgemm::prepack_detail {

// The layout (weight bits x MMA operand bits) of a (b_type, a_type) pair; throws
// mixgemm::Error (message prefixed "mixgemm::<where>: ") for a pair prepack cannot serve.
layout::Kind kind_for(ScalarType b_type, ScalarType a_type, const char* where);

// kind_for + K, N > 0, N % 16 == 0, K % block_k == 0, with padding advice.
layout::Kind check_shape(int64_t K, int64_t N, ScalarType b_type, ScalarType a_type,
                         const char* where);

// check_shape + the format is known and fits the weight width (GPTQ/AWQ are 4-bit).
layout::Kind check_format(WeightFormat format, int64_t K, int64_t N, ScalarType b_type,
                          ScalarType a_type, const char* where);

const char* format_name(WeightFormat f);

// AWQ's order: column j (0..7) of each group of 8 sits at nibble kAwqNibble[j].
inline constexpr int kAwqNibble[8] = {0, 4, 1, 5, 2, 6, 3, 7};

}  // namespace mixgemm::prepack_detail
