// smallm_heuristic_unity.cu - compiles smallm_heuristic.cpp into the library while the
// CMake glob takes no .cpp under src/kernels (see the note at the top of that file).
// Weak linkage: if the .cpp also gets compiled on its own, its definitions win and
// this file's are dropped by the linker instead of clashing.
#define MIXGEMM_SMALLM_LINKAGE __attribute__((weak))
#include "kernels/smallm/smallm_heuristic.cpp"
