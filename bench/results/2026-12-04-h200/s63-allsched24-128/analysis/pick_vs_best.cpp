// Moved to scripts/pick_vs_best.cpp in session 66 (the type config read from the type spec; for the u4b8 g128
// tables of sessions 63-65 it picks as this file did). The build commands of this folder and of ../s65-*/ work on it.
#include "../../../../../scripts/pick_vs_best.cpp"
