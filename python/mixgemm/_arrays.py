"""Array-library helpers: which library an array comes from, its element type name, its
device, the caller's current stream, and allocation "like" an array.

No library is imported here: torch and cupy are looked up in sys.modules only, so that
an array of theirs can exist only if they were imported by the caller already.
"""
from __future__ import annotations

import sys
from typing import Any, Optional, Tuple

import numpy as np

# dtype names (str(dtype) without the library prefix) -> mixgemm type names
_DTYPE_TO_TYPE = {
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "int8": "s8",
    "float8_e4m3fn": "e4m3",
    "int32": "s32",
}


def library(x: Any) -> str:
    """'torch', 'cupy', 'numpy' or 'other' (any other DLPack producer)."""
    mod = type(x).__module__.split(".")[0]
    if mod == "torch":
        return "torch"
    if mod == "cupy":
        return "cupy"
    if isinstance(x, np.ndarray):
        return "numpy"
    return "other"


def dtype_name(x: Any) -> str:
    return str(x.dtype).replace("torch.", "")


def type_of(x: Any) -> Optional[str]:
    """The mixgemm element-type name an array's dtype implies, or None when ambiguous
    (uint8 may hold e4m3 bits or u8 scales; uint16 may hold f16 or bf16 bits)."""
    return _DTYPE_TO_TYPE.get(dtype_name(x))


def is_gpu(x: Any) -> bool:
    lib = library(x)
    if lib == "numpy":
        return False
    if lib == "torch":
        return x.device.type == "cuda"
    if lib == "cupy":
        return True
    dev = getattr(x, "__dlpack_device__", None)
    return dev is not None and dev()[0] in (2, 13)  # kDLCUDA, kDLCUDAManaged


def device_index(x: Any) -> int:
    lib = library(x)
    if lib == "torch":
        return x.device.index if x.device.index is not None else 0
    if lib == "cupy":
        return x.device.id
    dev = getattr(x, "__dlpack_device__", None)
    return dev()[1] if dev is not None else 0


def current_stream(x: Any) -> int:
    """The caller's current CUDA stream for x's library and device, as an integer
    (cudaStream_t). 0 (the legacy default stream) for libraries without such a notion."""
    lib = library(x)
    if lib == "torch":
        torch = sys.modules["torch"]
        return int(torch.cuda.current_stream(x.device).cuda_stream)
    if lib == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(x.device.id):
            return int(cupy.cuda.get_current_stream().ptr)
    return 0


def for_dlpack(x: Any) -> Any:
    """A view of x that DLPack/the buffer protocol can carry: fp8 and bfloat16 as raw bits
    where a library cannot export them."""
    lib = library(x)
    name = dtype_name(x)
    if lib == "torch" and name.startswith("float8"):
        return x.view(sys.modules["torch"].uint8)
    if lib == "numpy" and name == "bfloat16":  # ml_dtypes
        return x.view(np.uint16)
    return x


_TORCH_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "u8": "uint8", "s8": "int8",
                 "e4m3": "float8_e4m3fn", "s32": "int32", "u16": "uint16"}


def empty_like_lib(x: Any, shape: Tuple[int, ...], type_name: str, zero: bool = False) -> Any:
    """A new array of `shape` and mixgemm type `type_name` from x's library, on x's device."""
    lib = library(x)
    if lib == "torch":
        torch = sys.modules["torch"]
        dt = getattr(torch, _TORCH_DTYPES[type_name])
        f = torch.zeros if zero else torch.empty
        return f(shape, dtype=dt, device=x.device)
    np_dt = {"bf16": np.uint16, "e4m3": np.uint8}.get(type_name) or np.dtype(_TORCH_DTYPES[type_name])
    if lib == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(x.device.id):
            return (cupy.zeros if zero else cupy.empty)(shape, dtype=np_dt)
    if lib == "numpy":
        return (np.zeros if zero else np.empty)(shape, dtype=np_dt)
    raise TypeError(
        f"mixgemm: cannot allocate an array like a {type(x).__name__}; pass out= (and workspace=) explicitly")


def zeros_for_stream(x: Any, nbytes: int, stream: int) -> Any:
    """A zero-filled uint8 array of nbytes from x's library, on x's device, filled on `stream`
    (and, for torch, owned by it in the caching allocator), so that work later queued on that
    stream sees the zeros whatever the library's current stream is."""
    lib = library(x)
    if lib in ("torch", "cupy") and int(stream) != current_stream(x):
        if lib == "torch":
            torch = sys.modules["torch"]
            with torch.cuda.stream(torch.cuda.ExternalStream(int(stream), device=x.device)):
                return torch.zeros((nbytes,), dtype=torch.uint8, device=x.device)
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(x.device.id), cupy.cuda.ExternalStream(int(stream)):
            return cupy.zeros((nbytes,), dtype=np.uint8)
    return empty_like_lib(x, (nbytes,), "u8", zero=True)


def is_capturing(x: Any) -> bool:
    """Whether x's library is capturing a CUDA graph on the current stream."""
    if library(x) == "torch":
        return bool(sys.modules["torch"].cuda.is_current_stream_capturing())
    if library(x) == "cupy":
        cupy = sys.modules["cupy"]
        try:
            return bool(cupy.cuda.get_current_stream().is_capturing())
        except Exception:  # older CuPy
            return False
    return False
