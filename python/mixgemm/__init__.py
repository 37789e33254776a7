"""mixgemm: mixed-input GEMM kernels for quantized LLM inference on Hopper.

    out[m, n] = cast_out( tok[m] * ch[n] * sum_k a[m, k] * w[k, n] + bias[n] )

with w rebuilt from 4- or 8-bit weights prepacked once by :func:`prepack`.

Arrays cross into the library through DLPack (or the buffer protocol): NumPy arrays on
the CPU paths (quantizers, CPU prepack/unpack, the CPU reference), PyTorch or CuPy
tensors (any DLPack producer) on the GPU paths. GPU calls run on the caller's current
stream (torch's or CuPy's current stream) unless ``stream=`` gives one (an integer
cudaStream_t). Library errors arrive as :class:`MixgemmError` subclasses with the C++
message. PyTorch custom ops and ``QuantLinear`` live in :mod:`mixgemm.torch`.

Shapes follow the C++ API: weights are ``[K, N]`` (in_features x out_features, i.e. the
transpose of ``nn.Linear.weight``), activations ``[M, K]``, outputs ``[M, N]``.
Type names: activations 'f16', 'bf16', 's8', 'e4m3'; weights 'u4b8', 'u4', 'u8b128',
'u8'; scales 'f16', 'bf16', 'u8' (QQQ integer group scales); outputs 'f16', 'bf16'.
"""
from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _arrays
from . import _C
from ._C import CudaError, InvalidArgumentError, MixgemmError, NotSupportedError

__version__ = "0.1.0"

__all__ = [
    "MixgemmError", "InvalidArgumentError", "NotSupportedError", "CudaError",
    "QuantizedWeight", "quantize_weights", "rescale_for_fp8", "dequantize_weights",
    "from_gptq", "from_awq", "prepack", "unpack", "prepacked_size", "prepack_zeros",
    "gemm", "supported_schedules", "choose_schedule", "describe_plan", "workspace_size", "partial_sums_count",
    "quantize_activations", "reference_gemm", "default_scale_type", "PREPACKED_LAYOUT_VERSION",
]

#: The version of the prepacked weight layout (and of the zero points' prepacked form) that
#: :func:`prepack` and :func:`prepack_zeros` write: store it beside prepacked weights and prepack
#: again when it differs (``mixgemm::kPrepackedLayoutVersion``, docs/layout.md "Versioning").
PREPACKED_LAYOUT_VERSION: int = int(_C.PREPACKED_LAYOUT_VERSION)

ACT_TYPES = ("f16", "bf16", "s8", "e4m3")
WEIGHT_TYPES = ("u4b8", "u4", "u8b128", "u8")


def default_scale_type(act_type: str) -> str:
    """The group-scale type that goes with an activation type: f16 -> f16, bf16 -> bf16,
    s8 -> u8 (QQQ integer scales), e4m3 -> f16."""
    return {"f16": "f16", "bf16": "bf16", "s8": "u8", "e4m3": "f16"}.get(act_type, "f16")


def _np_scales(raw: Optional[np.ndarray], scale_type: str) -> Optional[np.ndarray]:
    """[G, N*bytes] uint8 from the extension -> [G, N] float16 / uint16 (bf16 bits) / uint8."""
    if raw is None:
        return None
    if scale_type == "f16":
        return raw.view(np.float16)
    if scale_type == "bf16":
        return raw.view(np.uint16)
    return raw


def _to_numpy(x: Any) -> np.ndarray:
    """A host array for the CPU paths (NumPy as is; torch CPU tensors and others through
    DLPack/np.asarray)."""
    x = _arrays.for_dlpack(x)
    if isinstance(x, np.ndarray):
        return np.ascontiguousarray(x)
    if _arrays.is_gpu(x):
        raise InvalidArgumentError("mixgemm: this function runs on the CPU; pass a host array "
                                   "(NumPy or a CPU tensor), e.g. tensor.cpu()")
    if _arrays.library(x) == "torch":
        return np.ascontiguousarray(x.detach().numpy())
    return np.ascontiguousarray(np.asarray(x))


@dataclass
class QuantizedWeight:
    """A quantized ``K x N`` weight in mixgemm's unpacked form (docs/semantics.md).

    Attributes:
        q: ``[K, N]`` uint8, one stored integer per element (0..15 or 0..255).
        type: 'u4b8' / 'u8b128' (symmetric) or 'u4' / 'u8' (with ``zeros``).
        group_size: 0 (no group scales), K, or a divisor of K.
        scale_type: 'f16', 'bf16' or 'u8' (QQQ integer scales).
        group_scales: ``[K // group_size, N]``: float16 for f16, uint16 bits for bf16
            (torch: bfloat16), uint8 for u8; None when group_size == 0.
        zeros: ``[G, N]`` uint8 raw zero points z (G = 1 when group_size == 0), or None.
        channel_scales: ``[N]`` float32 per-column factors (the epilogue's ch), or None.
        perm: ``[K]`` int32 act-order permutation (GPTQ desc_act): activations must be
            gathered as ``a[:, perm]`` before the GEMM. None for ordinary weights.

    The arrays are NumPy arrays when produced on the CPU, torch tensors when produced by
    :func:`mixgemm.torch.quantize_weights`.
    """

    q: Any
    type: str
    group_size: int
    scale_type: str
    group_scales: Any = None
    zeros: Any = None
    channel_scales: Any = None
    perm: Any = None

    @property
    def K(self) -> int:
        return int(self.q.shape[0])

    @property
    def N(self) -> int:
        return int(self.q.shape[1])

    @property
    def has_zeros(self) -> bool:
        return self.zeros is not None

    def numpy(self) -> "QuantizedWeight":
        """The same weight with every array on the host as NumPy."""
        def conv(x):
            if x is None or isinstance(x, np.ndarray):
                return x
            if _arrays.library(x) == "torch":
                t = x.detach().cpu()
                if str(t.dtype) == "torch.bfloat16":  # bf16 as uint16 bits, like the CPU quantizers
                    return t.view(__import__("torch").int16).numpy().view(np.uint16)
                return t.numpy()
            return np.asarray(x)
        return replace(self, q=conv(self.q), group_scales=conv(self.group_scales), zeros=conv(self.zeros),
                       channel_scales=conv(self.channel_scales), perm=conv(self.perm))

    def _fields(self):
        s = self.numpy()
        gs = s.group_scales
        if gs is not None and gs.dtype == np.float16:
            gs = gs.view(np.uint16)
        return (np.ascontiguousarray(s.q), s.type, int(s.group_size), s.scale_type,
                None if gs is None else np.ascontiguousarray(gs),
                None if s.zeros is None else np.ascontiguousarray(s.zeros),
                None if s.channel_scales is None else np.ascontiguousarray(s.channel_scales, dtype=np.float32))


def _from_tuple(t, type_: str, group_size: int, scale_type: str) -> QuantizedWeight:
    q, gs, z, ch = t
    return QuantizedWeight(q=q, type=type_, group_size=group_size, scale_type=scale_type,
                           group_scales=_np_scales(gs, scale_type), zeros=z, channel_scales=ch)


def _real_type(w: np.ndarray, w_type: Optional[str]) -> str:
    if w_type is not None:
        return w_type
    t = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}.get(str(w.dtype))
    if t is None:
        raise InvalidArgumentError(f"mixgemm.quantize_weights: w has dtype {w.dtype}; accepted: float32, "
                                   "float16, or uint16 bits with w_type='bf16' or 'f16'")
    return t


def quantize_weights(w: Any, method: str = "rtn", weight_type: str = "u4b8", group_size: int = 128,
                     scale_type: str = "f16", w_type: Optional[str] = None) -> QuantizedWeight:
    """Quantize a ``[K, N]`` weight on the CPU (docs/semantics.md section 7).

    Args:
        w: ``[K, N]`` host array: float32, float16, or uint16 bits with ``w_type``
            ('f16' / 'bf16'). Transpose an ``nn.Linear.weight`` (``[N, K]``) first.
        method: 'rtn' (round to nearest; weight_type u4b8/u8b128 symmetric or u4/u8 with
            zero points; group scales of ``scale_type`` f16/bf16, or per-column f32
            channel scales when ``group_size == 0``), 'qqq' (QQQ two-level for s8
            activations: u4b8, u8 integer group scales, f32 channel scales), or 'fp8'
            (RTN followed by :func:`rescale_for_fp8`, for e4m3 activations).
        group_size: 0, K, or a divisor of K (the GEMM also needs 16 | group_size; 32 for
            8-bit activations).

    Returns:
        A :class:`QuantizedWeight` of NumPy arrays.
    """
    w = _to_numpy(w)
    if w.ndim != 2:
        raise InvalidArgumentError(f"mixgemm.quantize_weights: w must be [K, N]; got shape {w.shape}")
    wt = _real_type(w, w_type)
    if method == "rtn" or method == "fp8":
        st = scale_type if group_size else "f16"
        qw = _from_tuple(_C.quantize_weights_rtn(w, wt, weight_type, group_size, st), weight_type, group_size, st)
        return rescale_for_fp8(qw) if method == "fp8" else qw
    if method == "qqq":
        if weight_type != "u4b8":
            raise InvalidArgumentError("mixgemm.quantize_weights: method='qqq' produces u4b8 weights; "
                                       f"got weight_type='{weight_type}'")
        return _from_tuple(_C.quantize_weights_qqq(w, wt, group_size), "u4b8", group_size, "u8")
    raise InvalidArgumentError(f"mixgemm.quantize_weights: method='{method}' is unknown; accepted: 'rtn', "
                               "'qqq', 'fp8'")


def rescale_for_fp8(qw: QuantizedWeight) -> QuantizedWeight:
    """int4 -> fp8 weight scaling for e4m3 activations (semantics 7.3): f16 group scales s'
    and f32 channel scales c' with s' c' ~= s c, every (q - B|z) s' within +-448."""
    q, t, g, st, gs, z, ch = qw._fields()
    out = _from_tuple(_C.rescale_for_fp8(q, t, g, st, gs, z, ch), t, g, "f16")
    return replace(out, perm=qw.numpy().perm)


def dequantize_weights(qw: QuantizedWeight, act_type: str = "f16") -> np.ndarray:
    """The effective ``[K, N]`` float64 weights a GEMM with ``act_type`` activations
    computes with (the tensor cores' weight times the channel scales, exactly)."""
    q, t, g, st, gs, z, ch = qw._fields()
    return _C.dequantize_weights(q, t, g, st, gs, z, ch, act_type)


def from_gptq(qweight: Any, qzeros: Any, scales: Any, g_idx: Any = None, bits: int = 4,
              sym: Optional[bool] = None, zero_format: str = "v1") -> QuantizedWeight:
    """Import a GPTQ checkpoint's tensors (docs/semantics.md section 9).

    Args:
        qweight: int32 ``[K * bits / 32, N]``.
        qzeros: int32 ``[G, N * bits / 32]`` (v1: stores z - 1; 'v2': z).
        scales: float16 ``[G, N]``.
        g_idx: optional int32 ``[K]`` (act-order checkpoints): rows are sorted by group and
            ``perm`` set; the caller gathers activations ``a[:, perm]``.
        sym: True: u4b8/u8b128 without zero points (every z must be the midpoint); False:
            u4/u8 with zeros; None: symmetric if every z is the midpoint.
    """
    qweight = _to_numpy(qweight).astype(np.int32, copy=False)
    scales = _to_numpy(scales)
    sc = np.ascontiguousarray(scales.astype(np.float16, copy=False))
    G, N = sc.shape
    K = qweight.shape[0] * 32 // bits
    q = _C.gptq_unpack_qweight(qweight, K, N, bits)
    z = _C.gptq_unpack_qzeros(_to_numpy(qzeros).astype(np.int32, copy=False), G, N, bits, zero_format)
    mid = 8 if bits == 4 else 128
    if sym is None:
        sym = bool(np.all(z == mid))
    perm = None
    group_size = K // G
    if g_idx is not None:
        g = np.ascontiguousarray(_to_numpy(g_idx).astype(np.int32, copy=False))
        if not _C.gptq_g_idx_is_trivial(g, group_size):
            perm, group_size = _C.gptq_act_order(g, G)
            q = _C.permute_rows(q, perm)
    if sym:
        if not np.all(z == mid):
            raise InvalidArgumentError(f"mixgemm.from_gptq: sym=True but some zero points differ from {mid}")
        t = "u4b8" if bits == 4 else "u8b128"
        return QuantizedWeight(q=q, type=t, group_size=group_size, scale_type="f16", group_scales=sc, perm=perm)
    if np.any(z > (15 if bits == 4 else 255)):
        raise InvalidArgumentError("mixgemm.from_gptq: a zero point of 2^bits (v1 stored 2^bits - 1) does not fit "
                                   "mixgemm's zero points; accepted: 0 .. 2^bits - 1")
    t = "u4" if bits == 4 else "u8"
    return QuantizedWeight(q=q, type=t, group_size=group_size, scale_type="f16", group_scales=sc,
                           zeros=z.astype(np.uint8), perm=perm)


def from_awq(qweight: Any, qzeros: Any, scales: Any) -> QuantizedWeight:
    """Import an AWQ checkpoint's tensors: qweight int32 ``[K, N/8]``, qzeros int32
    ``[G, N/8]`` (AWQ order, z itself), scales float16 ``[G, N]``. Returns u4 with zeros."""
    qweight = _to_numpy(qweight).astype(np.int32, copy=False)
    sc = np.ascontiguousarray(_to_numpy(scales).astype(np.float16, copy=False))
    G, N = sc.shape
    K = qweight.shape[0]
    q = _C.awq_unpack_qweight(qweight, K, N)
    z = _C.awq_unpack_qzeros(_to_numpy(qzeros).astype(np.int32, copy=False), G, N)
    return QuantizedWeight(q=q, type="u4", group_size=K // G, scale_type="f16", group_scales=sc, zeros=z)


def prepacked_size(K: int, N: int, weight_type: str = "u4b8") -> int:
    """Bytes of the prepacked buffer of a ``K x N`` weight of ``weight_type``."""
    return int(_C.prepacked_size(K, N, weight_type))


def prepack(q: Any, K: Optional[int] = None, N: Optional[int] = None, weight_type: str = "u4b8",
            act_type: str = "f16", format: str = "unpacked", out: Any = None, stream: Optional[int] = None) -> Any:
    """Reorder quantized weights into mixgemm's prepacked layout (docs/layout.md).

    Args:
        q: 'unpacked': uint8 ``[K, N]``; 'gptq': int32 ``[K/8, N]``; 'awq': int32
            ``[K, N/8]``. A host array runs the CPU prepack and returns a NumPy uint8
            array; a GPU array runs the GPU prepack (byte-identical) on the current stream
            and returns a uint8 array of q's library (or fills ``out``).
        K, N: needed for the packed formats; taken from q's shape for 'unpacked'.
        act_type: the activation type the weights will run with (16-bit and 8-bit
            activations use different layouts).

    Returns:
        uint8 ``[prepacked_size(K, N, weight_type)]``.
    """
    if format == "unpacked":
        K = int(q.shape[0]) if K is None else K
        N = int(q.shape[1]) if N is None else N
    elif format == "gptq":
        K = int(q.shape[0]) * 8 if K is None else K
        N = int(q.shape[1]) if N is None else N
    elif format == "awq":
        K = int(q.shape[0]) if K is None else K
        N = int(q.shape[1]) * 8 if N is None else N
    if K is None or N is None:
        raise InvalidArgumentError("mixgemm.prepack: pass K and N")
    if not _arrays.is_gpu(q):
        return _C.prepack_cpu(_to_numpy(q), format, K, N, weight_type, act_type)
    if out is None:
        out = _arrays.empty_like_lib(q, (prepacked_size(K, N, weight_type),), "u8")
    s = _arrays.current_stream(q) if stream is None else stream
    _C.prepack_device(_arrays.for_dlpack(q), format, K, N, weight_type, act_type, out, s)
    return out


def unpack(b: Any, K: int, N: int, weight_type: str = "u4b8", act_type: str = "f16") -> np.ndarray:
    """Inverse of :func:`prepack` on the CPU: uint8 ``[K, N]``."""
    return _C.unpack_cpu(_to_numpy(b), K, N, weight_type, act_type)


def prepack_zeros(zeros: Any, scales: Any, act_type: str = "f16", scale_type: Optional[str] = None) -> np.ndarray:
    """Zero points in the form the kernels read (CPU): ``[G, N]`` of the scale type
    (float16, or uint16 bf16 bits) holding RN(-(z * s)) for 16-bit and e4m3 activations;
    uint8 z * sg for s8. ``scales`` may be None when there are no group scales."""
    st = scale_type or default_scale_type(act_type)
    sc = None
    if scales is not None:
        sc = _to_numpy(scales)
        if sc.dtype == np.float16:
            sc = sc.view(np.uint16)
    raw = _C.prepack_zeros_cpu(_to_numpy(zeros).astype(np.uint8, copy=False), sc, act_type,
                               st if scales is not None else ("f16" if act_type != "bf16" else "bf16"))
    if act_type == "s8":
        return raw
    return _np_scales(raw, st if scales is not None else ("bf16" if act_type == "bf16" else "f16"))


def _problem_types(a_type: str, weight_type: str, scale_type: Optional[str], out_type: str,
                   has_zeros: bool) -> Tuple[str, str, str, bool, str]:
    return a_type, weight_type, scale_type or default_scale_type(a_type), bool(has_zeros), out_type


def supported_schedules(a_type: str = "f16", weight_type: str = "u4b8", scale_type: Optional[str] = None,
                        has_zeros: bool = False, out_type: str = "f16") -> List[str]:
    """Names of the schedules (kernel configurations) that can run this type configuration,
    in a stable order; any of them may be forced with ``gemm(..., schedule=name)``."""
    return list(_C.supported_schedules(*_problem_types(a_type, weight_type, scale_type, out_type, has_zeros)))


def choose_schedule(M: int, N: int, K: int, a_type: str = "f16", weight_type: str = "u4b8",
                    scale_type: Optional[str] = None, has_zeros: bool = False, out_type: str = "f16",
                    group_size: int = 0, sm_count: int = 132) -> str:
    """The schedule the heuristic picks for this problem on a GPU with ``sm_count`` SMs."""
    a, b, s, z, o = _problem_types(a_type, weight_type, scale_type, out_type, has_zeros)
    return _C.choose_schedule(M, N, K, a, b, s, z, o, group_size, sm_count)


def describe_plan(M: int, N: int, K: int, a_type: str = "f16", weight_type: str = "u4b8",
                  scale_type: Optional[str] = None, has_zeros: bool = False, out_type: str = "f16",
                  group_size: int = 0, sm_count: int = 132) -> str:
    """What ``gemm`` runs for this problem without a forced schedule: ``choose_schedule``'s name
    for one launch, or ``"<schedule>[<rows>]+<schedule>"`` when it runs rows ``[0, rows)`` and
    ``[rows, M)`` as two launches (an M that fits the kernels' token tiles badly, e.g. 320)."""
    a, b, s, z, o = _problem_types(a_type, weight_type, scale_type, out_type, has_zeros)
    return _C.describe_plan(M, N, K, a, b, s, z, o, group_size, sm_count)


def workspace_size(M: int, N: int, K: int, a_type: str = "f16", weight_type: str = "u4b8",
                   scale_type: Optional[str] = None, has_zeros: bool = False, out_type: str = "f16",
                   group_size: int = 0, sm_count: int = 0) -> int:
    """Bytes of workspace :func:`gemm` needs for this problem on the current device (the
    maximum over every schedule, and over every M' <= M: a workspace sized for the largest
    batch serves every smaller one), or on ``sm_count`` of its SMs (the ``sm_count`` of the
    :func:`gemm` calls it serves). Zero-fill it once; gemm leaves it zeroed."""
    a, b, s, z, o = _problem_types(a_type, weight_type, scale_type, out_type, has_zeros)
    return int(_C.workspace_size(M, N, K, a, b, s, z, o, group_size, sm_count))


def partial_sums_count(M: int, N: int, K: int, a_type: str = "f16", weight_type: str = "u4b8",
                       scale_type: Optional[str] = None, has_zeros: bool = False, out_type: str = "f16",
                       group_size: int = 0, schedule: str = "", sm_count: int = 0) -> int:
    """S, the number of ``[M, N]`` partial sums ``mixgemm.torch.gemm_partial_sums`` writes for
    this problem on the current device (2..16), or 0 where the schedule (``''``: the heuristic's
    pick) has no partial-sum form (M > 16; no column stripe shared by two CTAs): use :func:`gemm` there. The
    caller's ``cast_out(tok * ch * (((p[0] + p[1]) + ...) + p[S-1]) + bias)`` is gemm's output
    (include/mixgemm/gemm.h, docs/semantics.md "Partial sums"). ``sm_count``: as :func:`gemm`'s."""
    a, b, s, z, o = _problem_types(a_type, weight_type, scale_type, out_type, has_zeros)
    return int(_C.partial_sums_count(M, N, K, a, b, s, z, o, group_size, schedule, sm_count))


# Workspaces of the array-generic gemm(), one per (library, device, stream): calls that share a
# workspace must be ordered on one stream (the library's rule), and this module cannot order two
# streams of an arbitrary DLPack library, so each stream gets its own (16-33 MiB for real shapes).
# mixgemm.torch keeps one per device and orders the streams with events instead.
_workspaces: Dict[Tuple[str, int, int], Any] = {}
_workspaces_lock = threading.Lock()
# Workspaces a CUDA graph captured are kept when they are replaced (the graph replays at the address
# it captured; mixgemm.torch does the same): the keys whose current one a capture used, and the
# replaced ones.
_ws_in_graph: set = set()
_retired_workspaces: List[Any] = []


@functools.lru_cache(maxsize=4096)
def _workspace_size_cached(M: int, N: int, K: int, a: str, b: str, s: str, z: bool, o: str, group_size: int,
                           device: int, sm_count: int = 0) -> int:
    """workspace_size, once per problem, device and SM count: the bound over every M' <= M costs up to
    ~0.1-0.3 ms of host time at large M, more than a GEMM call's own checks."""
    return workspace_size(M, N, K, a, b, s, z, o, group_size, sm_count)


def _workspace_for(a: Any, nbytes: int, stream: int) -> Any:
    key = (_arrays.library(a), _arrays.device_index(a), int(stream))
    with _workspaces_lock:
        ws = _workspaces.get(key)
        capturing = _arrays.is_capturing(a)
        if ws is None or int(ws.shape[0]) < nbytes:
            if capturing:
                raise MixgemmError(f"mixgemm.gemm: the workspace must grow to {nbytes} bytes during CUDA graph "
                                   "capture; run the call once before capturing, or pass workspace=")
            if ws is not None and key in _ws_in_graph:
                _retired_workspaces.append(ws)
            _ws_in_graph.discard(key)
            # Zero-filled on `stream` itself (not the library's current stream, which stream= may not
            # be); a grown one replaces the old, whose memory the allocator hands out again only
            # after the work queued on that stream (unless a graph captured it: kept above).
            ws = _arrays.zeros_for_stream(a, max(nbytes, 256), stream)
            _workspaces[key] = ws
        elif capturing:
            _ws_in_graph.add(key)
        return ws


def _require_type(where: str, name: str, x: Any, want: str) -> None:
    """An array whose floating-point dtype names another type than the one it is read as
    (bfloat16 scales for f16, float16 out for bf16, ...) is refused: same-size elements would be
    misread silently. Integer arrays pass as raw bits (uint16 for f16/bf16, uint8 for e4m3)."""
    got = _arrays.type_of(x) if x is not None else None
    if got in ("f16", "bf16", "e4m3", "f32") and got != want:
        raise InvalidArgumentError(f"mixgemm.{where}: {name} is a {_arrays.dtype_name(x)} array but is read as "
                                   f"'{want}'; pass an array of that type (or its raw bits)")


def gemm(a: Any, b: Any, N: int, *, group_scales: Any = None, group_zeros: Any = None,
         channel_scales: Any = None, token_scales: Any = None, bias: Any = None,
         weight_type: str = "u4b8", group_size: int = 0, has_zeros: Optional[bool] = None,
         a_type: Optional[str] = None, scale_type: Optional[str] = None, out_type: Optional[str] = None,
         out: Any = None, workspace: Any = None, schedule: str = "", stream: Optional[int] = None,
         sm_count: int = 0) -> Any:
    """``out[M, N] = cast_out(tok[m] * ch[n] * sum_k a[m, k] * w[k, n] + bias[n])`` on the GPU.

    Args:
        a: ``[M, K]`` GPU array, row stride a multiple of 8 (16-bit) / 16 (8-bit) elements:
            float16, bfloat16, int8 (s8), float8_e4m3fn or uint8 bits with a_type='e4m3'.
        b: prepacked weights (:func:`prepack` with the same act_type), uint8.
        N: output features.
        group_scales: ``[K / group_size, N]`` of scale_type (f16/bf16; uint8 for s8).
        group_zeros: prepacked zero points (:func:`prepack_zeros`), when the weight type is
            u4/u8 with zeros (has_zeros defaults to ``group_zeros is not None``).
        channel_scales: ``[N]`` float32; token_scales: ``[M]`` float32; bias: ``[N]`` of
            out_type.
        out: ``[M, N]`` float16/bfloat16 (allocated from a's library when None; out_type
            defaults to out's dtype, else f16 — bf16 for bf16 activations).
        workspace: uint8 GPU array of at least :func:`workspace_size` bytes, zero-filled
            once, whose calls are ordered on one stream (pass one per stream). When None, the
            module keeps one per (library, device, stream), so calls on concurrent streams
            never share one (:mod:`mixgemm.torch`'s ops share one per device, in turns).
        schedule: '' (the heuristic) or one of :func:`supported_schedules`.
        stream: integer cudaStream_t; None: the current stream of a's library.
        sm_count: 0 (all of the device's SMs), or the SMs the stream runs on (a CUDA green
            context's n): the work is planned for them (include/mixgemm/gemm.h,
            ``GemmArgs::sm_count``); a passed workspace must then be
            ``workspace_size(..., sm_count=n)`` bytes or more.

    Returns:
        ``out``. Raises :class:`MixgemmError` (nothing written) on invalid input.
    """
    if not _arrays.is_gpu(a):
        raise InvalidArgumentError("mixgemm.gemm: a must be a GPU array; the CPU path is reference_gemm()")
    at = a_type or _arrays.type_of(a)
    if at not in ACT_TYPES:
        raise InvalidArgumentError(f"mixgemm.gemm: cannot tell the activation type of a {_arrays.dtype_name(a)} "
                                   "array; pass a_type= ('f16', 'bf16', 's8', 'e4m3')")
    M, K = int(a.shape[0]), int(a.shape[1])
    if out_type is None:
        out_type = _arrays.type_of(out) if out is not None else ("bf16" if at == "bf16" else "f16")
    st = scale_type or default_scale_type(at)
    hz = (group_zeros is not None) if has_zeros is None else has_zeros
    _require_type("gemm", "a", a, at)
    _require_type("gemm", "out", out, out_type)
    _require_type("gemm", "group_scales", group_scales, st)
    _require_type("gemm", "channel_scales", channel_scales, "f32")
    _require_type("gemm", "token_scales", token_scales, "f32")
    _require_type("gemm", "bias", bias, out_type)
    if out is None:
        out = _arrays.empty_like_lib(a, (M, N), out_type)
    if M == 0:  # no tokens (an engine's empty batch): nothing to compute, as mixgemm.torch's ops
        workspace_size(1, N, K, at, weight_type, st, hz, out_type, group_size, sm_count)  # the problem's checks
        return out
    s = _arrays.current_stream(a) if stream is None else stream
    if workspace is None:
        need = _workspace_size_cached(M, N, K, at, weight_type, st, hz, out_type, group_size,
                                      _arrays.device_index(a), sm_count)
        workspace = _workspace_for(a, need, s)
    f = _arrays.for_dlpack
    opt = lambda x: None if x is None else f(x)  # noqa: E731
    _C.gemm_arrays(f(a), f(b), f(out), f(workspace), N, at, weight_type, st, hz, out_type, group_size,
                   opt(group_scales), opt(group_zeros), opt(channel_scales), opt(token_scales), opt(bias),
                   schedule, s, sm_count)
    return out


def quantize_activations(a: Any, to: str = "s8", static_scale: Any = None, a_type: Optional[str] = None,
                         q: Any = None, token_scales: Any = None, stream: Optional[int] = None) -> Tuple[Any, Any]:
    """Per-token activation quantization (semantics section 6), bit-exact on both paths.

    Args:
        a: ``[M, K]`` float16/bfloat16 (GPU) or float32/float16 (CPU; uint16 bf16 bits
            with a_type='bf16').
        to: 's8' or 'e4m3'.
        static_scale: None (dynamic per-token) or the per-tensor scale: a float (CPU) or a
            one-element float32 GPU array (GPU).

    Returns:
        ``(q, token_scales)``: q ``[M, K]`` (int8 for s8; uint8 e4m3 bits on the CPU, the
        library's float8_e4m3fn when it has one), token_scales ``[M]`` float32.
    """
    at = a_type or _arrays.type_of(a)
    if not _arrays.is_gpu(a):
        an = _to_numpy(a)
        scale = None if static_scale is None else float(np.asarray(static_scale).reshape(-1)[0])
        qh, tok = _C.quantize_activations_cpu(an, at, to, scale)
        return (qh.view(np.int8) if to == "s8" else qh), tok
    M, K = int(a.shape[0]), int(a.shape[1])
    _require_type("quantize_activations", "a", a, at)
    _require_type("quantize_activations", "token_scales", token_scales, "f32")
    _require_type("quantize_activations", "static_scale", static_scale, "f32")
    if q is None:
        q = _arrays.empty_like_lib(a, (M, K), "s8" if to == "s8" else
                                   ("e4m3" if _arrays.library(a) == "torch" else "u8"))
    if token_scales is None:
        token_scales = _arrays.empty_like_lib(a, (M,), "f32")
    if M == 0:
        return q, token_scales
    s = _arrays.current_stream(a) if stream is None else stream
    _C.quantize_activations_device(_arrays.for_dlpack(a), at, to, _arrays.for_dlpack(q),
                                   _arrays.for_dlpack(token_scales),
                                   None if static_scale is None else _arrays.for_dlpack(static_scale), s)
    return q, token_scales


def reference_gemm(a: Any, qw: QuantizedWeight, *, a_type: Optional[str] = None, out_type: str = "f16",
                   token_scales: Any = None, bias: Any = None, threads: int = 0) -> np.ndarray:
    """The CPU reference of docs/semantics.md for ``a @ w`` with ``w`` the quantized weight
    ``qw`` (unpacked, raw zero points). Returns ``[M, N]`` float16 (uint16 bits for bf16).

    a: ``[M, K]`` host array: float16, int8 (s8), uint8 e4m3 bits or uint16 bits (pass
    a_type). qw's perm, if any, is applied to a's columns first."""
    an = _to_numpy(a)
    at = a_type or {"float16": "f16", "int8": "s8"}.get(str(an.dtype))
    if at is None:
        raise InvalidArgumentError(f"mixgemm.reference_gemm: pass a_type for a {an.dtype} array")
    q, t, g, st, gs, z, ch = qw._fields()
    perm = qw.numpy().perm
    if perm is not None:
        an = np.ascontiguousarray(an[:, perm])
    tok = None if token_scales is None else np.ascontiguousarray(_to_numpy(token_scales), dtype=np.float32)
    bi = None
    if bias is not None:
        bi = _to_numpy(bias)
        bi = np.ascontiguousarray(bi.astype(np.float16).view(np.uint16) if bi.dtype != np.uint16 else bi)
    out = _C.reference_gemm(an.view(np.uint16) if an.dtype == np.float16 else an, q, q.shape[1], at, t, st,
                            z is not None, out_type, g, gs, z, ch, tok, bi, threads)
    return out.view(np.float16) if out_type == "f16" else out
