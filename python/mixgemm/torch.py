"""PyTorch integration of mixgemm (pure Python; import it explicitly: ``import mixgemm.torch``).

- Custom ops ``torch.ops.mixgemm.gemm`` and ``torch.ops.mixgemm.quantize_activations``
  (``torch.library.custom_op``) with fake (meta) implementations, so
  ``torch.compile(fullgraph=True)`` traces through them and CUDA-graph capture records
  them. They run on torch's current stream and take their workspace from a per-device
  buffer that this module keeps (zero-filled once; the kernels leave it zeroed); calls on
  different streams take turns on it (an event orders a stream after the previous one).
- :class:`QuantLinear`: a drop-in ``nn.Linear`` replacement (W4A16, W8A16, W4A8 with s8 or
  e4m3 activations), built with :meth:`QuantLinear.from_linear`,
  :meth:`QuantLinear.from_quantized`, :meth:`QuantLinear.from_gptq` or
  :meth:`QuantLinear.from_awq`; :func:`quantize_model` replaces every ``nn.Linear`` of a
  module tree.
- :func:`quantize_weights`: the CPU quantizers of the library re-done in torch (any device,
  bit-identical results), so that large models quantize on the GPU in seconds.

The C++ extension never sees a torch type: the ops pass data pointers and
``torch.cuda.current_stream().cuda_stream`` as integers.
"""
from __future__ import annotations

import contextlib
import functools
import math
import os
import threading
from typing import Dict, Iterable, List, Optional, Tuple

import numpy as np
import torch
from torch import Tensor

import mixgemm
from mixgemm import _C

__all__ = ["QuantLinear", "quantize_model", "quantize_weights", "reserve_workspace", "workspace",
           "gemm", "gemm_partial_sums", "sum_partials", "quantize_activations", "torch_dtype", "type_name"]

_TO_NAME = {torch.float16: "f16", torch.bfloat16: "bf16", torch.int8: "s8", torch.float8_e4m3fn: "e4m3",
            torch.float32: "f32", torch.uint8: "u8", torch.int32: "s32"}
_FROM_NAME = {"f16": torch.float16, "bf16": torch.bfloat16, "s8": torch.int8, "e4m3": torch.float8_e4m3fn,
              "f32": torch.float32, "u8": torch.uint8, "s32": torch.int32}


def type_name(dtype: torch.dtype) -> str:
    """mixgemm's name for a torch dtype ('f16', 'bf16', 's8', 'e4m3', ...)."""
    try:
        return _TO_NAME[dtype]
    except KeyError:
        raise mixgemm.InvalidArgumentError(f"mixgemm: dtype {dtype} has no mixgemm type") from None


def torch_dtype(name: str) -> torch.dtype:
    """The torch dtype of a mixgemm type name (scales 'u8' -> uint8, 'e4m3' -> float8_e4m3fn)."""
    return _FROM_NAME[name]


# ---- the per-device workspace -----------------------------------------------------------------
_workspaces: Dict[int, Tensor] = {}
# MIXGEMM_PDL=0 (read at import): QuantLinear's W4A8 GEMM is launched as a plain kernel instead of
# a programmatic dependent of its activation-quantization kernel (A/B timing; the results are the same).
_PDL = os.environ.get("MIXGEMM_PDL", "1") != "0"
_ws_bytes: Dict[tuple, int] = {}


def _dev_index(device) -> int:
    device = torch.device(device)
    return device.index if device.index is not None else torch.cuda.current_device()


# The stream of the last call on each device's workspace, and the lock that makes "order after the
# last stream, then launch" one step for host threads that call the ops at once.
_ws_stream: Dict[int, "torch.cuda.Stream"] = {}
_ws_lock = threading.RLock()


def _stream_capturing(stream: "torch.cuda.Stream") -> bool:
    """Whether `stream` is capturing a CUDA graph (torch answers for the current stream only)."""
    if stream.cuda_stream == 0:
        return False  # the legacy default stream is never captured (asked during a capture it may error)
    if stream == torch.cuda.current_stream(stream.device):
        return torch.cuda.is_current_stream_capturing()
    with torch.cuda.stream(stream):
        return torch.cuda.is_current_stream_capturing()


def _order_workspace(idx: int, stream: "torch.cuda.Stream") -> None:
    """The library's rule is that calls sharing a workspace are ordered on one stream, and this
    module keeps one workspace per device. So when the ops move to another stream, that stream
    first waits for everything enqueued so far on the previous one (an event): two streams never
    use the workspace at once (their calls lose concurrency, never their results). Outside
    capture the workspace is also recorded as used by the stream, so that growing it does not free
    memory a kernel on it may still use. Inside a CUDA-graph capture the same event makes an edge
    of the graph when both streams are capturing (the branches of a fork / join capture, e.g. a
    side stream for shared experts): until session 75 nothing was ordered during capture, and two
    branches' calls ran at once on the workspace at every replay. A capturing and a non-capturing
    stream cannot be ordered (CUDA forbids the dependency); there the capture goes on unordered, as
    before, and its calls order the ones that follow in it."""
    last = _ws_stream.get(idx)
    if last is not None and last != stream:
        capturing = _stream_capturing(stream)
        if capturing == _stream_capturing(last):
            ev = torch.cuda.Event()
            ev.record(last)
            stream.wait_event(ev)
            ws = _workspaces.get(idx)
            if ws is not None and not capturing:
                ws.record_stream(stream)
    _ws_stream[idx] = stream


def reserve_workspace(device, nbytes: int) -> Tensor:
    """Make the workspace of ``device`` at least ``nbytes`` (zero-filled, on the current
    stream). Call it before CUDA-graph capture if the first call of a new shape would
    happen inside the capture; QuantLinear does this for M <= 64 when it is built."""
    idx = _dev_index(device)
    with _ws_lock:
        return _reserve_workspace_locked(idx, nbytes)


# Devices whose current workspace a CUDA graph has captured, and the workspaces replaced after a
# capture: a graph keeps the address it captured, so a replaced workspace must outlive every
# replay. Freeing it (as until session 75) let the allocator hand its memory to other tensors,
# and a decode graph captured before a larger eager call grew the workspace then wrote its
# split-K partials and counters into them at every replay. Kept for the life of the process:
# a few per device at most (each replacement is larger, and the largest need is ~33 MiB).
_ws_in_graph: set = set()
_retired_workspaces: List[Tensor] = []


def _reserve_workspace_locked(idx: int, nbytes: int) -> Tensor:
    ws = _workspaces.get(idx)
    capturing = torch.cuda.is_current_stream_capturing()
    if ws is None or ws.numel() < nbytes:
        if capturing:
            raise mixgemm.MixgemmError(
                f"mixgemm.torch: the workspace of cuda:{idx} must grow to {nbytes} bytes during CUDA graph "
                "capture; run the model once before capturing or call mixgemm.torch.reserve_workspace first")
        _order_workspace(idx, torch.cuda.current_stream(idx))
        if ws is not None and idx in _ws_in_graph:
            _retired_workspaces.append(ws)
        _ws_in_graph.discard(idx)
        ws = torch.zeros(max(int(nbytes), 256), dtype=torch.uint8, device=torch.device("cuda", idx))
        _workspaces[idx] = ws
    elif capturing:
        _ws_in_graph.add(idx)
    return ws


def workspace(device) -> Optional[Tensor]:
    """The current workspace of a device (None before the first reservation)."""
    return _workspaces.get(_dev_index(device))


def _problem_ws_bytes(M, N, K, a, b, s, z, o, g, device_index, sm_count: int = 0) -> int:
    # By M: workspace_size(M) covers every M' <= M (since session 75; what one call needs is not
    # monotone in M), and above 64 tokens it grows with M (e.g. fused qkv 6144 x 4096 at M = 512).
    # Cached: the bound costs up to ~0.1-0.3 ms of host time at large M.
    key = (M, N, K, a, b, s, z, o, g, device_index, sm_count)
    n = _ws_bytes.get(key)
    if n is None:
        with torch.cuda.device(device_index):
            n = int(_C.workspace_size(key[0], N, K, a, b, s, z, o, g, sm_count))
        _ws_bytes[key] = n
    return n


def _ptr(t: Optional[Tensor]) -> int:
    return 0 if t is None else t.data_ptr()


def _aligned(t: Tensor) -> Tensor:
    if not t.is_contiguous():
        t = t.contiguous()
    if t.data_ptr() % 16:
        t = t.clone()
    return t


def _check_cuda(where: str, a: Tensor, *others: Optional[Tensor]) -> None:
    if a.device.type != "cuda":
        raise mixgemm.InvalidArgumentError(
            f"mixgemm.torch.{where}: the tensors must be on a CUDA device; got {a.device} "
            "(the CPU path is mixgemm.reference_gemm)")
    for t in others:
        if t is not None and t.device != a.device:
            raise mixgemm.InvalidArgumentError(
                f"mixgemm.torch.{where}: every tensor must be on {a.device}; got one on {t.device}")


_ELEM_BYTES = {"f16": 2, "bf16": 2, "s8": 1, "e4m3": 1, "u8": 1, "f32": 4}


@functools.lru_cache(maxsize=None)
def _prepacked_bytes(K: int, N: int, weight_type: str) -> int:
    return mixgemm.prepacked_size(K, N, weight_type)


def _require_dense(where: str, name: str, t: Optional[Tensor], count: int, nbytes: int,
                   type_name_: Optional[str] = None) -> None:
    """t: None, or a contiguous tensor of `count` elements of `nbytes` bytes. With `type_name_`
    (the mixgemm type the pointer is read as), a floating-point tensor must be of that type:
    a bfloat16 tensor read as f16 (same size) would be silently wrong; integer tensors of the
    right size pass as raw bits."""
    if t is None:
        return
    want = _FROM_NAME.get(type_name_) if type_name_ else None
    if want is not None and t.dtype.is_floating_point and t.dtype != want:
        raise mixgemm.InvalidArgumentError(
            f"mixgemm.torch.{where}: {name} is {t.dtype} but is read as {type_name_} ({want}); pass it as {want}")
    if t.element_size() != nbytes:
        raise mixgemm.InvalidArgumentError(
            f"mixgemm.torch.{where}: {name} has {t.element_size()}-byte elements ({t.dtype}); expected "
            f"{nbytes}-byte elements")
    if not t.is_contiguous():
        raise mixgemm.InvalidArgumentError(f"mixgemm.torch.{where}: {name} must be contiguous (row-major)")
    if t.numel() != count:
        raise mixgemm.InvalidArgumentError(
            f"mixgemm.torch.{where}: {name} has {t.numel()} elements, shape {tuple(t.shape)}; expected {count}")


def _check_operands(where: str, a: Tensor, b: Tensor, N: int, weight_type: str, scale_type: str, group_size: int,
                    out_type: str, group_scales: Optional[Tensor] = None, group_zeros: Optional[Tensor] = None,
                    channel_scales: Optional[Tensor] = None, token_scales: Optional[Tensor] = None,
                    bias: Optional[Tensor] = None) -> None:
    """What the ops pass to the library as bare pointers must be what those pointers are read as:
    the rules of :func:`mixgemm.gemm`'s array checks (element size, contiguity, element count; b at
    least the prepacked size). A tensor of another layout would otherwise be read as garbage."""
    if a.dim() != 2:
        raise mixgemm.InvalidArgumentError(f"mixgemm.torch.{where}: a must be 2-D [M, K]; got shape {tuple(a.shape)}")
    M, K = a.shape
    if not b.is_contiguous():
        raise mixgemm.InvalidArgumentError(f"mixgemm.torch.{where}: b (the prepacked weights) must be contiguous")
    if K > 0 and N > 0 and weight_type in mixgemm.WEIGHT_TYPES:
        need = _prepacked_bytes(int(K), int(N), weight_type)
        if b.numel() * b.element_size() < need:
            raise mixgemm.InvalidArgumentError(
                f"mixgemm.torch.{where}: b holds {b.numel() * b.element_size()} bytes; a prepacked {K} x {N} "
                f"{weight_type} weight needs {need}")
    if group_size < 0 or (group_size > 0 and K % group_size != 0):
        return  # the library refuses the group size itself, with its own message
    G = K // group_size if group_size > 0 else 1
    sb = _ELEM_BYTES.get(scale_type, 0)
    _require_dense(where, "group_scales", group_scales, G * N, sb, scale_type)
    # Prepacked zero points: the scale type's width for 16-bit and e4m3 activations, u8 for s8.
    zb = 1 if a.dtype == torch.int8 else (sb if group_size > 0 else 2)
    zt = "u8" if a.dtype == torch.int8 else (scale_type if group_size > 0 else
                                             ("bf16" if a.dtype == torch.bfloat16 else "f16"))
    _require_dense(where, "group_zeros", group_zeros, G * N, zb, zt)
    _require_dense(where, "channel_scales", channel_scales, N, 4, "f32")
    _require_dense(where, "token_scales", token_scales, M, 4, "f32")
    _require_dense(where, "bias", bias, N, _ELEM_BYTES.get(out_type, 0), out_type)


# ---- custom ops -------------------------------------------------------------------------------
# Each op's implementation is a plain function, registered with torch.library (fake implementation
# below it) for torch.compile and the dispatcher. Eager calls on plain CUDA tensors run it directly:
# a Python custom op's trip through the dispatcher costs tens of microseconds of host time per call
# (~100 us for an op that only allocates its output, torch 2.15 on the 2-core development machine),
# more than a decode GEMM's own kernel, so eager decoding was bound by it. Under torch.compile, and
# for tensor subclasses (fake, functional), the calls go through torch.ops.mixgemm.*.
# MIXGEMM_TORCH_DISPATCH=1 (read at import): every call goes through the dispatcher (A/B timing).
_ALWAYS_DISPATCH = os.environ.get("MIXGEMM_TORCH_DISPATCH", "0") == "1"


def _eager(x: Tensor) -> bool:
    # is_compiling() first: Dynamo folds it to True and never looks at the tensor's type.
    return not torch.compiler.is_compiling() and not _ALWAYS_DISPATCH and type(x) is torch.Tensor and x.is_cuda


def _gemm_impl(a: Tensor, b: Tensor, group_scales: Optional[Tensor], group_zeros: Optional[Tensor],
               channel_scales: Optional[Tensor], token_scales: Optional[Tensor], bias: Optional[Tensor],
               N: int, weight_type: str, scale_type: str, has_zeros: bool, group_size: int, out_type: str,
               schedule: str, pdl: bool = False, sm_count: int = 0) -> Tensor:
    _check_cuda("gemm", a, b, group_scales, group_zeros, channel_scales, token_scales, bias)
    _check_operands("gemm", a, b, N, weight_type, scale_type, group_size, out_type, group_scales, group_zeros,
                    channel_scales, token_scales, bias)
    M, K = a.shape
    out = torch.empty((M, N), dtype=_FROM_NAME[out_type], device=a.device)
    if M == 0:
        return out
    a = _aligned(a)
    a_type = type_name(a.dtype)
    idx = a.device.index
    need = _problem_ws_bytes(M, N, K, a_type, weight_type, scale_type, has_zeros, out_type, group_size, idx, sm_count)
    cur = torch.cuda.current_stream(a.device)
    other_device = torch.cuda.current_device() != idx
    with _ws_lock, (torch.cuda.device(idx) if other_device else contextlib.nullcontext()):
        _order_workspace(idx, cur)
        ws = _reserve_workspace_locked(idx, need)
        _C.gemm_ptr(M, N, K, a_type, weight_type, scale_type, has_zeros, out_type, group_size, a.data_ptr(), K,
                    b.data_ptr(), _ptr(group_scales), _ptr(group_zeros), _ptr(channel_scales), _ptr(token_scales),
                    _ptr(bias), out.data_ptr(), N, ws.data_ptr(), ws.numel(), schedule, cur.cuda_stream, pdl,
                    sm_count)
    return out


_gemm_op = torch.library.custom_op("mixgemm::gemm", _gemm_impl, mutates_args=())


@_gemm_op.register_fake
def _gemm_fake(a, b, group_scales, group_zeros, channel_scales, token_scales, bias, N, weight_type, scale_type,
               has_zeros, group_size, out_type, schedule, pdl=False, sm_count=0):
    return a.new_empty((a.shape[0], N), dtype=_FROM_NAME[out_type])


def _gemm_partial_sums_impl(a: Tensor, b: Tensor, group_scales: Optional[Tensor], group_zeros: Optional[Tensor],
                          N: int, parts: int, weight_type: str, scale_type: str, has_zeros: bool, group_size: int,
                          out_type: str, schedule: str, pdl: bool = False, sm_count: int = 0) -> Tensor:
    _check_cuda("gemm_partial_sums", a, b, group_scales, group_zeros)
    _check_operands("gemm_partial_sums", a, b, N, weight_type, scale_type, group_size, out_type, group_scales,
                    group_zeros)
    M, K = a.shape
    out = torch.empty((parts, M, N), dtype=torch.int32 if a.dtype == torch.int8 else torch.float32, device=a.device)
    if M == 0:
        return out
    a = _aligned(a)
    with torch.cuda.device(a.device.index):
        _C.gemm_partial_sums_ptr(M, N, K, type_name(a.dtype), weight_type, scale_type, has_zeros, out_type,
                                 group_size, a.data_ptr(), K, b.data_ptr(), _ptr(group_scales), _ptr(group_zeros),
                                 out.data_ptr(), schedule, torch.cuda.current_stream(a.device).cuda_stream, pdl,
                                 sm_count)
    return out


_gemm_partial_sums_op = torch.library.custom_op("mixgemm::gemm_partial_sums", _gemm_partial_sums_impl,
                                                mutates_args=())


@_gemm_partial_sums_op.register_fake
def _gemm_partial_sums_fake(a, b, group_scales, group_zeros, N, parts, weight_type, scale_type, has_zeros, group_size,
                            out_type, schedule, pdl=False, sm_count=0):
    return a.new_empty((parts, a.shape[0], N), dtype=torch.int32 if a.dtype == torch.int8 else torch.float32)


_parts_count: Dict[tuple, int] = {}


def _partial_sums_count(M, N, K, a, b, s, z, o, g, schedule, device_index, sm_count: int = 0) -> int:
    key = (M, N, K, a, b, s, z, o, g, schedule, device_index, sm_count)
    n = _parts_count.get(key)
    if n is None:
        with torch.cuda.device(device_index):
            n = int(_C.partial_sums_count(M, N, K, a, b, s, z, o, g, schedule, sm_count))
        _parts_count[key] = n
    return n


def _partial_sums_epilogue(acc: Tensor, tok: Optional[Tensor], ch: Optional[Tensor],
                           bias: Optional[Tensor]) -> Tensor:
    """The decode kernel's epilogue before the output cast, ``fma(acc, RN(tok[m] * ch[n]), bias[n])``
    in f32 (docs/semantics.md 5.3), for the cases torch rounds the same way: no token / channel
    scale (``RN(acc + bias)``) or no bias (``RN(acc * s + 0)``)."""
    acc = acc.float()  # s32 -> f32 round-to-nearest, as the kernel's conversion (f32: unchanged)
    s = tok[:, None] if tok is not None else None
    if ch is not None:
        s = ch if s is None else s * ch  # RN(tok * ch), the kernel's product
    if s is None:
        return acc if bias is None else acc + bias.float()
    assert bias is None, "a bias with token / channel scales needs an fma: QuantLinear keeps gemm there"
    # "+ 0.0": the fma adds +0, which turns a -0 product (a zero sum times a negative scale) into
    # +0; whether inductor keeps the add or contracts it into an fma, the bits are the kernel's.
    return acc * s + 0.0


def sum_partials(parts: Tensor) -> Tensor:
    """``((parts[0] + parts[1]) + ...) + parts[S-1]``: the order gemm's own reduction adds them in
    (an unrolled sum that torch.compile fuses into the consumer)."""
    acc = parts[0]
    for i in range(1, parts.shape[0]):
        acc = acc + parts[i]
    return acc


def _quantize_activations_impl(a: Tensor, to: str, static_scale: Optional[Tensor]) -> Tuple[Tensor, Tensor]:
    _check_cuda("quantize_activations", a, static_scale)
    if to not in ("s8", "e4m3"):
        raise mixgemm.InvalidArgumentError(f"mixgemm.torch.quantize_activations: to='{to}'; accepted: s8, e4m3")
    _require_dense("quantize_activations", "static_scale", static_scale, 1, 4)
    M, K = a.shape
    q = torch.empty((M, K), dtype=_FROM_NAME[to], device=a.device)
    tok = torch.empty((M,), dtype=torch.float32, device=a.device)
    if M == 0:
        return q, tok
    a = _aligned(a)
    with torch.cuda.device(a.device.index):
        _C.quantize_activations_ptr(M, K, a.data_ptr(), type_name(a.dtype), K, to, q.data_ptr(), K, tok.data_ptr(),
                                    _ptr(static_scale), torch.cuda.current_stream(a.device).cuda_stream)
    return q, tok


_quantize_activations_op = torch.library.custom_op("mixgemm::quantize_activations", _quantize_activations_impl,
                                                   mutates_args=())


@_quantize_activations_op.register_fake
def _quantize_activations_fake(a, to, static_scale):
    M, K = a.shape
    return a.new_empty((M, K), dtype=_FROM_NAME[to]), a.new_empty((M,), dtype=torch.float32)


def gemm(a: Tensor, b: Tensor, N: int, *, group_scales: Optional[Tensor] = None,
         group_zeros: Optional[Tensor] = None, channel_scales: Optional[Tensor] = None,
         token_scales: Optional[Tensor] = None, bias: Optional[Tensor] = None, weight_type: str = "u4b8",
         scale_type: Optional[str] = None, group_size: int = 0, out_dtype: Optional[torch.dtype] = None,
         schedule: str = "", sm_count: int = 0) -> Tensor:
    """``torch.ops.mixgemm.gemm`` with keyword defaults: a ``[M, K]`` (f16/bf16/int8/
    float8_e4m3fn) times the prepacked weight ``b`` -> ``[M, N]`` of ``out_dtype`` (default:
    a's dtype for 16-bit a, else float16). See :func:`mixgemm.gemm` for the operands;
    ``sm_count``: plan for that many SMs (the current stream's green context, say; 0: the
    device's), as :func:`mixgemm.gemm`'s."""
    at = type_name(a.dtype)
    st = scale_type or mixgemm.default_scale_type(at)
    if out_dtype is None:
        out_dtype = a.dtype if a.dtype in (torch.float16, torch.bfloat16) else torch.float16
    op = _gemm_impl if _eager(a) else torch.ops.mixgemm.gemm
    return op(a, b, group_scales, group_zeros, channel_scales, token_scales, bias, N, weight_type, st,
              group_zeros is not None, group_size, type_name(out_dtype), schedule, False, sm_count)


def gemm_partial_sums(a: Tensor, b: Tensor, N: int, *, group_scales: Optional[Tensor] = None,
                      group_zeros: Optional[Tensor] = None, weight_type: str = "u4b8",
                      scale_type: Optional[str] = None, group_size: int = 0,
                      out_dtype: Optional[torch.dtype] = None, schedule: str = "",
                      sm_count: int = 0) -> Optional[Tensor]:
    """``torch.ops.mixgemm.gemm_partial_sums``: the decode GEMM's S split-K partial sums, ``[S, M,
    N]`` float32 (int32 for int8 a), unreduced and without epilogue, or None where the problem has
    no partial-sum form (:func:`mixgemm.partial_sums_count` is 0: M > 16, very wide layers, and the
    large layers whose decode the heuristic gives sm90's 256 x 16 tile).
    ``sum_partials(parts)``, then ``* tok * ch + bias`` and the cast to ``out_dtype``, is
    :func:`gemm`'s output; under torch.compile that sum fuses into the next kernel and the
    GEMM's own reduction launch disappears (include/mixgemm/gemm.h, gemm_partial_sums).
    ``sm_count``: as :func:`gemm`'s (S depends on it)."""
    at = type_name(a.dtype)
    st = scale_type or mixgemm.default_scale_type(at)
    if out_dtype is None:
        out_dtype = a.dtype if a.dtype in (torch.float16, torch.bfloat16) else torch.float16
    M, K = a.shape
    S = _partial_sums_count(M, N, K, at, weight_type, st, group_zeros is not None, type_name(out_dtype), group_size,
                            schedule, _dev_index(a.device), sm_count)
    if S < 2:
        return None
    op = _gemm_partial_sums_impl if _eager(a) else torch.ops.mixgemm.gemm_partial_sums
    return op(a, b, group_scales, group_zeros, N, S, weight_type, st, group_zeros is not None, group_size,
              type_name(out_dtype), schedule, False, sm_count)


def quantize_activations(a: Tensor, to: str = "s8", static_scale: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
    """``torch.ops.mixgemm.quantize_activations``: ``[M, K]`` f16/bf16 -> (q ``[M, K]`` int8 or
    float8_e4m3fn, token scales ``[M]`` float32), bit-exact with the CPU quantizer."""
    op = _quantize_activations_impl if _eager(a) else torch.ops.mixgemm.quantize_activations
    return op(a, to, static_scale)


# ---- weight quantizers in torch (bit-identical to the library's CPU quantizers) ---------------
def _rn16(x: Tensor, dt: torch.dtype) -> Tensor:
    """Round float64 x to f16/bf16 with one round-to-nearest-even (torch's cast goes through
    f32 first; the neighbour check undoes a double rounding). Returns int16 bit patterns."""
    neg = x < 0
    ax = x.abs()
    h = ax.to(dt)
    b = h.view(torch.int16)
    hv = h.double()
    c = torch.where(hv < ax, b + 1, b - 1)
    cv = c.view(dt).double()
    dh, dc = (hv - ax).abs(), (cv - ax).abs()
    take = (dc < dh) | ((dc == dh) & (c % 2 == 0) & (b % 2 != 0))
    take &= hv != ax
    r = torch.where(take, c, b)
    return torch.where(neg, r | torch.tensor(-32768, dtype=torch.int16, device=x.device), r)


def _ru16(x: Tensor, dt: torch.dtype) -> Tensor:
    """RU to f16/bf16 of a non-negative float64 (the smallest value >= x), int16 bits."""
    b = _rn16(x, dt)
    return torch.where(b.view(dt).double() < x, b + 1, b)


def _ru32(x: Tensor) -> Tensor:
    f = x.float()
    return torch.where(f.double() < x, torch.nextafter(f, torch.full_like(f, math.inf)), f)


def _chunks(N: int, K: int, budget_elems: int = 1 << 26) -> Iterable[Tuple[int, int]]:
    step = max(16, (budget_elems // max(K, 1)) // 16 * 16)
    for n0 in range(0, N, step):
        yield n0, min(N, n0 + step)


def _rtn_chunk(w: Tensor, weight_type: str, gs: int, has_groups: bool, scale_type: str):
    K, N = w.shape
    G = K // gs
    sym = weight_type in ("u4b8", "u8b128")
    qmax = 15.0 if weight_type in ("u4b8", "u4") else 255.0
    B = {"u4b8": 8.0, "u8b128": 128.0}.get(weight_type, 0.0)
    wg = w.view(G, gs, N)
    lo = wg.amin(1).clamp(max=0.0)
    hi = wg.amax(1).clamp(min=0.0)
    amax = torch.maximum(-lo, hi)
    s_exact = amax / (B - 0.5) if sym else (hi - lo) / qmax
    s_exact = torch.where(s_exact == 0, torch.ones_like(s_exact), s_exact)
    scales = ch = None
    if has_groups:
        dt = _FROM_NAME[scale_type]
        bits = _ru16(s_exact, dt)
        scales = bits.view(dt)
        s = scales.double()
        if not bool(torch.isfinite(s).all()) or bool((s == 0).any()):
            raise mixgemm.InvalidArgumentError(
                f"mixgemm.torch.quantize_weights: a group scale does not fit {scale_type}; accepted: weights "
                "whose scales are finite in the scale type")
    else:
        ch = _ru32(s_exact.view(N))
        if not bool(torch.isfinite(ch).all()):
            raise mixgemm.InvalidArgumentError("mixgemm.torch.quantize_weights: a channel scale overflows f32")
        s = ch.double().view(1, N)
    z = None
    if sym:
        zq = torch.full_like(s, B)
    else:
        zq = torch.clamp(torch.round(-lo / s), 0.0, qmax)
        z = zq.to(torch.uint8)
    q = torch.clamp(torch.round(wg / s.unsqueeze(1)) + zq.unsqueeze(1), 0.0, qmax).to(torch.uint8).view(K, N)
    return q, scales, z, ch


def _qqq_chunk(w: Tensor, gs: int, has_groups: bool):
    K, N = w.shape
    G = K // gs
    aw = w.abs()
    amax = aw.amax(0)
    rng = 120.0 if has_groups else 7.5
    ch = torch.where(amax == 0, torch.ones_like(amax, dtype=torch.float32), _ru32(amax / rng))
    if not bool(torch.isfinite(ch).all()):
        raise mixgemm.InvalidArgumentError("mixgemm.torch.quantize_weights: a channel scale overflows f32")
    chd = ch.double()
    sg = None
    if has_groups:
        gmax = aw.view(G, gs, N).amax(1)
        sgd = torch.ones_like(gmax)
        for _ in range(15):
            sgd = sgd + ((sgd < 16) & (sgd * 7.5 * chd < gmax)).double()
        sg = sgd.to(torch.uint8)
        step = sgd * chd
    else:
        step = chd.view(1, N)
    q = torch.clamp(torch.round(w.view(G, gs, N) / step.unsqueeze(1)) + 8.0, 0.0, 15.0).to(torch.uint8)
    return q.view(K, N), sg, ch


def _rescale_fp8(q: Tensor, weight_type: str, gs: int, scales: Tensor, zeros: Optional[Tensor],
                 ch: Optional[Tensor]) -> Tuple[Tensor, Tensor]:
    K, N = q.shape
    G = K // gs
    center = zeros.double().unsqueeze(1) if zeros is not None else {"u4b8": 8.0, "u4": 0.0}[weight_type]
    m = (q.double().view(G, gs, N) - center).abs().amax(1)
    c_old = ch.double() if ch is not None else torch.ones(N, dtype=torch.float64, device=q.device)
    s = scales.double()
    peak = (m * s.abs()).amax(0)
    c_new = torch.where((peak == 0) | (c_old == 0), torch.ones_like(c_old, dtype=torch.float32),
                        _ru32(c_old * peak / 448.0))
    if not bool(torch.isfinite(c_new).all()):
        raise mixgemm.InvalidArgumentError("mixgemm.torch.rescale_for_fp8: a channel scale overflows f32")
    bits = _rn16(s * c_old / c_new.double(), torch.float16)
    for _ in range(1024):
        bad = ((bits & 0x7FFF) != 0) & (m * bits.view(torch.float16).double().abs() > 448.0)
        if not bool(bad.any()):
            break
        bits = bits - bad.to(torch.int16)
    return bits.view(torch.float16), c_new


def quantize_weights(w: Tensor, method: str = "rtn", weight_type: str = "u4b8", group_size: int = 128,
                     scale_type: str = "f16") -> "mixgemm.QuantizedWeight":
    """:func:`mixgemm.quantize_weights` in torch, on w's device; the results are bit-identical
    to the CPU quantizers (the tests check this).

    Args:
        w: ``[K, N]`` float tensor (``linear.weight.t()`` for an ``nn.Linear``).
        method: 'rtn', 'qqq' (s8 activations) or 'fp8' (RTN + rescale_for_fp8, e4m3).

    Returns:
        a :class:`mixgemm.QuantizedWeight` of torch tensors on w's device (bf16 group scales
        as torch.bfloat16, u8 as uint8).
    """
    if w.dim() != 2:
        raise mixgemm.InvalidArgumentError(f"mixgemm.torch.quantize_weights: w must be [K, N]; got {tuple(w.shape)}")
    K, N = w.shape
    if group_size < 0 or (group_size > 0 and K % group_size):
        raise mixgemm.InvalidArgumentError(
            f"mixgemm.torch.quantize_weights: group_size={group_size} does not divide K={K}")
    if not bool(torch.isfinite(w).all()):
        raise mixgemm.InvalidArgumentError("mixgemm.torch.quantize_weights: w has non-finite values")
    gs = group_size or K
    has_groups = group_size != 0
    qs: List[Tensor] = []
    ss: List[Optional[Tensor]] = []
    zs: List[Optional[Tensor]] = []
    cs: List[Optional[Tensor]] = []
    if method in ("rtn", "fp8"):
        if weight_type not in mixgemm.WEIGHT_TYPES:
            raise mixgemm.InvalidArgumentError(f"mixgemm.torch.quantize_weights: weight_type='{weight_type}'; "
                                               f"accepted: {', '.join(mixgemm.WEIGHT_TYPES)}")
        st = scale_type if has_groups else "f16"
        if method == "fp8":
            st = "f16" if scale_type not in ("f16", "bf16") else scale_type
        for n0, n1 in _chunks(N, K):
            q, s, z, c = _rtn_chunk(w[:, n0:n1].double(), weight_type, gs, has_groups, st)
            qs.append(q), ss.append(s), zs.append(z), cs.append(c)
    elif method == "qqq":
        if weight_type != "u4b8":
            raise mixgemm.InvalidArgumentError("mixgemm.torch.quantize_weights: method='qqq' produces u4b8")
        st = "u8"
        for n0, n1 in _chunks(N, K):
            q, s, c = _qqq_chunk(w[:, n0:n1].double(), gs, has_groups)
            qs.append(q), ss.append(s), zs.append(None), cs.append(c)
    else:
        raise mixgemm.InvalidArgumentError(f"mixgemm.torch.quantize_weights: method='{method}'; accepted: "
                                           "'rtn', 'qqq', 'fp8'")
    cat = lambda xs: None if xs[0] is None else torch.cat(xs, dim=-1).contiguous()  # noqa: E731
    qw = mixgemm.QuantizedWeight(q=cat(qs), type=weight_type, group_size=group_size, scale_type=st,
                                 group_scales=cat(ss), zeros=cat(zs), channel_scales=cat(cs))
    if method == "fp8":
        if not has_groups:
            raise mixgemm.InvalidArgumentError("mixgemm.torch.quantize_weights: method='fp8' needs group_size > 0")
        s2, c2 = _rescale_fp8(qw.q, weight_type, gs, qw.group_scales, qw.zeros, qw.channel_scales)
        qw = mixgemm.QuantizedWeight(q=qw.q, type=weight_type, group_size=group_size, scale_type="f16",
                                     group_scales=s2, zeros=qw.zeros, channel_scales=c2)
    return qw


# ---- QuantLinear -------------------------------------------------------------------------------
def _as_tensor(x, device, dtype=None) -> Optional[Tensor]:
    if x is None:
        return None
    if isinstance(x, np.ndarray):
        if x.dtype == np.uint16:  # bf16 bits: int16 travels everywhere (uint16 tensors have few ops)
            x = x.view(np.int16)
        x = torch.from_numpy(np.ascontiguousarray(x))
    x = x.to(device)
    if dtype is not None and x.dtype != dtype:
        if x.dtype in (torch.uint16, torch.int16) and dtype == torch.bfloat16:
            x = x.view(torch.bfloat16)
        else:
            x = x.to(dtype)
    return x.contiguous()


class QuantLinear(torch.nn.Module):
    """``y = x @ W^T + bias`` with W quantized and prepacked for mixgemm.

    ``x``: ``[..., in_features]`` on a CUDA device; ``y``: ``[..., out_features]`` of
    ``dtype`` (the activation dtype for W4A16, the output dtype for W4A8). Activations of
    type 's8'/'e4m3' are quantized per token on the GPU (dynamic) before the GEMM.

    Buffers (saved in the state dict): ``qweight`` uint8 prepacked bytes; ``scales``
    ``[G, N]`` group scales (float16/bfloat16, uint8 for s8); ``zeros`` prepacked zero
    points or None; ``channel_scales`` ``[N]`` float32 or None; ``bias`` ``[N]`` or None;
    ``perm`` ``[K]`` int64 act-order permutation or None; ``layout_version`` int32 scalar, the
    prepacked layout's version (a state dict of another version is refused at load).

    ``partial_sums=True``: at decode sizes (M <= 16) the GEMM returns its split-K partial sums
    (:func:`gemm_partial_sums`) and the layer adds them in order and applies the epilogue, the
    same bits as the GEMM's own reduction over the same split; compiled, that work fuses into
    the next kernel and the reduction launch is saved (eager it costs S - 1 small adds). Layers
    whose epilogue torch cannot round as the kernel's single fma (a bias together with token or
    channel scales: every W4A8 layer with a bias) keep the plain GEMM.

    ``sm_count``: plan every call for that many SMs (the SMs of the green context whose stream the
    layer runs on; 0: the device's), as :func:`mixgemm.gemm`'s; the workspace and the partial-sum
    counts follow it.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, *, weight_type: str = "u4b8",
                 group_size: int = 128, act_type: str = "f16", has_zeros: bool = False,
                 has_channel_scales: Optional[bool] = None, act_order: bool = False,
                 dtype: torch.dtype = torch.float16, device=None, schedule: str = "",
                 partial_sums: bool = False, sm_count: int = 0) -> None:
        super().__init__()
        if act_type not in mixgemm.ACT_TYPES:
            raise mixgemm.InvalidArgumentError(f"QuantLinear: act_type='{act_type}'; accepted: "
                                               f"{', '.join(mixgemm.ACT_TYPES)}")
        if act_type in ("f16", "bf16"):
            dtype = _FROM_NAME[act_type]
        self.in_features, self.out_features = int(in_features), int(out_features)
        self.weight_type, self.group_size, self.act_type = weight_type, int(group_size), act_type
        self.scale_type = mixgemm.default_scale_type(act_type)
        self.has_zeros, self.dtype, self.schedule = bool(has_zeros), dtype, schedule
        self.sm_count = int(sm_count)
        # Decode calls (M <= 16) run gemm_partial_sums and sum the parts here, so that torch.compile
        # fuses the sum and the epilogue into the next kernel instead of the GEMM launching its own
        # reduction (the same bits; where there is no partial-sum form, the plain gemm).
        self.partial_sums = bool(partial_sums)
        self._parts_by_m: Dict[int, int] = {}  # M -> S, filled below (a plain dict torch.compile reads)
        self.out_type = type_name(dtype)
        device = torch.device(device) if device is not None else torch.device("cuda")
        K, N = self.in_features, self.out_features
        mixgemm._C.check_prepack_shape(K, N, weight_type, act_type)
        G = K // group_size if group_size else 1
        self.register_buffer("qweight", torch.zeros(mixgemm.prepacked_size(K, N, weight_type), dtype=torch.uint8,
                                                    device=device))
        sdt = _FROM_NAME[self.scale_type]
        self.register_buffer("scales", torch.zeros((G, N), dtype=sdt, device=device) if group_size else None)
        zdt = torch.uint8 if act_type == "s8" else (sdt if group_size else
                                                    (torch.bfloat16 if act_type == "bf16" else torch.float16))
        self.register_buffer("zeros", torch.zeros((G, N), dtype=zdt, device=device) if has_zeros else None)
        if has_channel_scales is None:
            has_channel_scales = act_type in ("s8", "e4m3") or group_size == 0
        self.register_buffer("channel_scales",
                             torch.ones(N, dtype=torch.float32, device=device) if has_channel_scales else None)
        self.register_buffer("bias", torch.zeros(N, dtype=dtype, device=device) if bias else None)
        self.register_buffer("perm", torch.arange(K, device=device) if act_order else None)
        # The layout qweight / zeros are prepacked in (mixgemm.PREPACKED_LAYOUT_VERSION): a state dict
        # saved under another version is refused at load (_load_from_state_dict) instead of read
        # as garbage. A tensor, so that safetensors can store it.
        self.register_buffer("layout_version", torch.tensor(mixgemm.PREPACKED_LAYOUT_VERSION, dtype=torch.int32,
                                                            device=device))
        # The kernel's epilogue is RN_out(fma(acc, RN(tok * ch), bias)) (docs/semantics.md 5.3).
        # Without a bias that is RN(acc * s + 0), and without token and channel scales RN(acc + bias):
        # torch computes both with the same roundings (_partial_sums_epilogue). Both together
        # would need an fma, which torch does not promise: such layers keep the plain gemm.
        scaled = act_type in ("s8", "e4m3") or has_channel_scales
        if device.type == "cuda":
            self.reserve_workspace()
            if not (bias and scaled):
                idx = _dev_index(device)
                for m in range(1, 17):
                    S = _partial_sums_count(m, N, K, act_type, weight_type, self.scale_type, self.has_zeros,
                                            self.out_type, self.group_size, schedule, idx, self.sm_count)
                    if S >= 2:
                        self._parts_by_m[m] = S

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}, "
                f"weight_type={self.weight_type}, group_size={self.group_size}, act_type={self.act_type}, "
                f"has_zeros={self.has_zeros}, dtype={self.dtype}")

    def reserve_workspace(self, max_m: int = 64) -> None:
        """Grow the device's workspace to what this layer needs for calls of up to
        ``max(max_m, 64)`` tokens (workspace_size covers every smaller M; call it with the largest
        M before capturing a CUDA graph that runs more than 64 tokens; the op itself grows the
        workspace outside capture)."""
        dev = self.qweight.device
        if dev.type != "cuda":
            return
        need = _problem_ws_bytes(max(int(max_m), 64), self.out_features, self.in_features, self.act_type,
                                 self.weight_type, self.scale_type, self.has_zeros, self.out_type, self.group_size,
                                 _dev_index(dev), self.sm_count)
        reserve_workspace(dev, need)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        v = state_dict.get(prefix + "layout_version")
        if v is not None and not v.is_meta and int(v) != mixgemm.PREPACKED_LAYOUT_VERSION:
            raise mixgemm.InvalidArgumentError(
                f"QuantLinear: '{prefix}qweight' was prepacked in layout version {int(v)}, this mixgemm reads version "
                f"{mixgemm.PREPACKED_LAYOUT_VERSION}; prepack the weights again (QuantLinear.from_quantized / "
                "from_linear / from_gptq / from_awq)")
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def weight_bytes(self) -> int:
        """Bytes of every buffer (what the layer streams per call, plus bias and perm)."""
        return sum(b.numel() * b.element_size() for b in self.buffers())

    def forward(self, x: Tensor) -> Tensor:
        lead = x.shape[:-1]
        x2 = x.reshape(-1, self.in_features)
        if x2.dtype != self.dtype:
            x2 = x2.to(self.dtype)
        if self.perm is not None:
            x2 = x2.index_select(1, self.perm)
        tok = None
        quantized = self.act_type in ("s8", "e4m3")
        S = self._parts_by_m.get(x2.shape[0], 0) if self.partial_sums else 0
        eager = _eager(x2)
        if quantized:
            quantize = _quantize_activations_impl if eager else torch.ops.mixgemm.quantize_activations
            x2, tok = quantize(x2, self.act_type, None)
        # After the quantize kernel (which lets its dependents start at once) the decode GEMM is
        # a programmatic dependent launch: it streams its weights while the activations are
        # quantized (GemmArgs::programmatic_dependent_launch; correct after any kernel).
        pdl = quantized and _PDL
        if S >= 2:
            partial_sums = _gemm_partial_sums_impl if eager else torch.ops.mixgemm.gemm_partial_sums
            parts = partial_sums(x2, self.qweight, self.scales, self.zeros, self.out_features, S, self.weight_type,
                                 self.scale_type, self.has_zeros, self.group_size, self.out_type, self.schedule, pdl,
                                 self.sm_count)
            y = _partial_sums_epilogue(sum_partials(parts), tok, self.channel_scales, self.bias)
            return y.to(self.dtype).reshape(*lead, self.out_features)
        gemm_fn = _gemm_impl if eager else torch.ops.mixgemm.gemm
        out = gemm_fn(x2, self.qweight, self.scales, self.zeros, self.channel_scales, tok, self.bias, self.out_features,
                      self.weight_type, self.scale_type, self.has_zeros, self.group_size, self.out_type, self.schedule,
                      pdl, self.sm_count)
        return out.reshape(*lead, self.out_features)

    # -- constructors --
    @classmethod
    def from_quantized(cls, qw: "mixgemm.QuantizedWeight", bias: Optional[Tensor] = None, *, act_type: str = "f16",
                       dtype: Optional[torch.dtype] = None, device=None, schedule: str = "",
                       partial_sums: bool = False, sm_count: int = 0) -> "QuantLinear":
        """A layer from a :class:`mixgemm.QuantizedWeight` (NumPy or torch arrays, ``[K, N]``).
        The scale type must suit ``act_type`` (f16/bf16 scales for 16-bit activations of the
        same type, u8 for s8, f16 for e4m3). Prepacks on the GPU when ``device`` is CUDA."""
        if device is None:
            device = qw.q.device if isinstance(qw.q, Tensor) and qw.q.is_cuda else torch.device("cuda")
        device = torch.device(device)
        if dtype is None:
            dtype = _FROM_NAME[act_type] if act_type in ("f16", "bf16") else torch.float16
        want = mixgemm.default_scale_type(act_type)
        if qw.group_size and qw.scale_type != want:
            raise mixgemm.InvalidArgumentError(
                f"QuantLinear.from_quantized: scale_type='{qw.scale_type}' does not suit act_type='{act_type}' "
                f"(needs '{want}'; for e4m3 use method='fp8' / mixgemm.rescale_for_fp8)")
        K, N = qw.K, qw.N
        layer = cls(K, N, bias is not None, weight_type=qw.type, group_size=qw.group_size, act_type=act_type,
                    has_zeros=qw.has_zeros, has_channel_scales=qw.channel_scales is not None,
                    act_order=qw.perm is not None, dtype=dtype, device=device, schedule=schedule,
                    partial_sums=partial_sums, sm_count=sm_count)
        with torch.no_grad():
            q = _as_tensor(qw.q, device, torch.uint8)
            if device.type == "cuda":
                mixgemm.prepack(q, K, N, qw.type, act_type, out=layer.qweight)
            else:
                layer.qweight.copy_(torch.from_numpy(mixgemm.prepack(q.numpy(), K, N, qw.type, act_type)))
            if qw.group_size:
                layer.scales.copy_(_as_tensor(qw.group_scales, device, layer.scales.dtype))
            if qw.has_zeros:
                hq = qw.numpy()
                zs = mixgemm.prepack_zeros(hq.zeros, hq.group_scales if qw.group_size else None, act_type,
                                           qw.scale_type if qw.group_size else None)
                layer.zeros.copy_(_as_tensor(zs, device, layer.zeros.dtype))
            if qw.channel_scales is not None:
                layer.channel_scales.copy_(_as_tensor(qw.channel_scales, device, torch.float32))
            if bias is not None:
                layer.bias.copy_(bias.detach().to(device=device, dtype=dtype))
            if qw.perm is not None:
                layer.perm.copy_(_as_tensor(qw.perm, device, torch.int64))
        return layer

    @classmethod
    def from_linear(cls, linear: torch.nn.Linear, weight_type: str = "u4b8", group_size: int = 128,
                    act_type: str = "f16", method: Optional[str] = None, device=None,
                    dtype: Optional[torch.dtype] = None, schedule: str = "",
                    partial_sums: bool = False, sm_count: int = 0) -> "QuantLinear":
        """Quantize an ``nn.Linear`` (on its device, with :func:`quantize_weights`) and pack it.

        act_type 'f16'/'bf16': RTN (weight_type u4b8, u4, u8b128 or u8) with group scales of
        that type; 's8': QQQ two-level (u4b8); 'e4m3': RTN + rescale_for_fp8 (u4b8 or u4).
        ``method`` overrides that choice ('rtn', 'qqq', 'fp8')."""
        w = linear.weight.detach()
        if device is None:
            device = w.device if w.is_cuda else torch.device("cuda")
        if dtype is None:
            dtype = (_FROM_NAME[act_type] if act_type in ("f16", "bf16")
                     else (w.dtype if w.dtype in (torch.float16, torch.bfloat16) else torch.float16))
        method = method or {"s8": "qqq", "e4m3": "fp8"}.get(act_type, "rtn")
        st = act_type if act_type in ("f16", "bf16") else "f16"
        qw = quantize_weights(w.to(device).t(), method=method, weight_type=weight_type, group_size=group_size,
                              scale_type=st)
        return cls.from_quantized(qw, linear.bias, act_type=act_type, dtype=dtype, device=device, schedule=schedule,
                                  partial_sums=partial_sums, sm_count=sm_count)

    @classmethod
    def from_gptq(cls, qweight: Tensor, qzeros: Tensor, scales: Tensor, g_idx: Optional[Tensor] = None,
                  bias: Optional[Tensor] = None, *, bits: int = 4, sym: Optional[bool] = None,
                  zero_format: str = "v1", act_type: str = "f16", device=None, sm_count: int = 0) -> "QuantLinear":
        """A layer from a GPTQ checkpoint's tensors (``<prefix>.qweight``, ``.qzeros``,
        ``.scales``, ``.g_idx``, ``.bias``; see :func:`mixgemm.from_gptq`). act_type 'f16'
        (as stored), 'bf16' (scales converted), or 'e4m3' (4-bit; rescaled for fp8)."""
        qw = mixgemm.from_gptq(qweight, qzeros, scales, g_idx, bits=bits, sym=sym, zero_format=zero_format)
        return cls._from_checkpoint(qw, bias, act_type, device, sm_count)

    @classmethod
    def from_awq(cls, qweight: Tensor, qzeros: Tensor, scales: Tensor, bias: Optional[Tensor] = None, *,
                 act_type: str = "f16", device=None, sm_count: int = 0) -> "QuantLinear":
        """A layer from an AWQ checkpoint's tensors (``.qweight`` int32 ``[K, N/8]``,
        ``.qzeros``, ``.scales``; see :func:`mixgemm.from_awq`)."""
        return cls._from_checkpoint(mixgemm.from_awq(qweight, qzeros, scales), bias, act_type, device, sm_count)

    @classmethod
    def _from_checkpoint(cls, qw, bias, act_type, device, sm_count=0):
        if act_type == "s8":
            raise mixgemm.NotSupportedError("QuantLinear: GPTQ/AWQ checkpoints carry f16 scales; s8 activations "
                                            "need QQQ's integer scales (use act_type 'f16', 'bf16' or 'e4m3')")
        if act_type == "e4m3":
            qw = mixgemm.rescale_for_fp8(qw)
        elif act_type == "bf16":
            import dataclasses
            s = torch.from_numpy(np.ascontiguousarray(qw.group_scales)).to(torch.bfloat16)
            qw = dataclasses.replace(qw, scale_type="bf16", group_scales=s)
        return cls.from_quantized(qw, bias, act_type=act_type, device=device, sm_count=sm_count)

    @classmethod
    def from_state_dict(cls, state: Dict[str, Tensor], prefix: str = "", fmt: str = "gptq",
                        **kwargs) -> "QuantLinear":
        """A layer from a GPTQ (``fmt='gptq'``) or AWQ (``fmt='awq'``) state dict: reads
        ``prefix + 'qweight'``, ``'qzeros'``, ``'scales'`` and, when present, ``'g_idx'``
        and ``'bias'``."""
        get = lambda k: state.get(prefix + k)  # noqa: E731
        if fmt == "gptq":
            return cls.from_gptq(get("qweight"), get("qzeros"), get("scales"), get("g_idx"), get("bias"), **kwargs)
        if fmt == "awq":
            return cls.from_awq(get("qweight"), get("qzeros"), get("scales"), get("bias"), **kwargs)
        raise mixgemm.InvalidArgumentError(f"QuantLinear.from_state_dict: fmt='{fmt}'; accepted: 'gptq', 'awq'")


def quantize_model(model: torch.nn.Module, weight_type: str = "u4b8", group_size: int = 128, act_type: str = "f16",
                   skip: Iterable[str] = (), free_original: bool = True, **kwargs) -> torch.nn.Module:
    """Replace every ``nn.Linear`` of ``model`` (in place) by :meth:`QuantLinear.from_linear`,
    except those whose qualified name is in ``skip``. Returns the model."""
    skip = set(skip)
    for name, mod in list(model.named_modules()):
        for child_name, child in list(mod.named_children()):
            full = f"{name}.{child_name}" if name else child_name
            if isinstance(child, torch.nn.Linear) and full not in skip:
                q = QuantLinear.from_linear(child, weight_type=weight_type, group_size=group_size, act_type=act_type,
                                            **kwargs)
                setattr(mod, child_name, q)
                if free_original:
                    del child
    return model
