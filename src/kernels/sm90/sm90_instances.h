// sm90_instances.h - the compiled sm90 kernel instances: one generated translation
// unit per (type config, schedule) (codegen/generate_sm90.py), listed in a generated
// table so that the host side knows exactly which schedules this build can run.
#pragma once

#include "kernels/gemm_params.h"
#include "kernels/sm90/sm90_kernel_params.h"

namespace mixgemm::kernels::sm90 {

using Sm90KernelFn = void (*)(Sm90KernelParams);

struct Sm90KernelInfo {
  Sm90KernelFn fn;
  int smem_bytes;  // dynamic shared memory of the instance (its Sm90Traits)
  // The same tile compiled for biased weights with one group row per 64-k block (u4b8 /
  // u8b128, group size a multiple of 64 or K: GPTQ's checkpoints), or null where `fn` is
  // already compiled per variant or none is built (sm90_info in sm90_gemm.cuh).
  Sm90KernelFn fn_gptq;
  // The same tile compiled for biased weights without group scales or zero points
  // (kSm90ScaleNone: per-channel), or null.
  Sm90KernelFn fn_plain;
  // The same tile compiled for 4-bit unsigned weights with one group row per 64-k block (u4 with
  // group scales and / or zero points: AWQ's checkpoints), or null (the 16-bit wide tile has it unless
  // built with MIXGEMM_SM90_AWQ_KERNEL=0).
  Sm90KernelFn fn_awq;
};

struct Sm90Instance {
  AType a;         // kF16, kBF16, kS8 or kE4M3
  int wbits;       // 4 or 8
  int tile_n;      // weight rows per CTA tile
  int tile_t;      // tokens per CTA tile
  Sm90KernelInfo (*info)();
};

struct Sm90Tile {
  int abits, wbits, tile_n, tile_t;  // activation bits (16 or 8), weight bits
};

// Generated (sm90_registry.cpp in the build tree): the compiled instances, and the
// generator's full schedule list (compiled or not).
extern const Sm90Instance kSm90Instances[];
extern const int kSm90InstanceCount;
extern const Sm90Tile kSm90AllTiles[];
extern const int kSm90AllTileCount;
// True when the build restricted the instance set (-DMIXGEMM_SM90_TYPES / _SCHEDULES).
extern const bool kSm90InstanceSetRestricted;

}  // namespace mixgemm::kernels::sm90
