// workspace_layout.h - the one layout of the gemm workspace, shared by every kernel family.
//
//   [0, kWorkspaceCounterBytes)  arrival counters (int32): zero before and after every launch
//   [kWorkspaceCounterBytes, ..) split-K partial tiles: scratch, any content
//
// One workspace serves any sequence of shapes, schedules and families on one stream (an
// engine keeps one per device). So no family may put anything but counters, which it
// leaves zero, in the counter area: a partial tile written there would be read as a
// non-zero counter by the next call of another family, whose split-K reduction would then
// never see "last to arrive" (outputs left unwritten) or reduce too early. That happened
// when sm90 put its partials right after its own few counters (fixed 2026-11-30).
#pragma once

#include <cstdint>

namespace mixgemm::kernels {

inline constexpr int64_t kWorkspaceCounterBytes = 64 * 1024;
inline constexpr int64_t kWorkspaceMaxCounters = kWorkspaceCounterBytes / 4;

}  // namespace mixgemm::kernels
