"""What part of a decode step a CUDA kernel belongs to, by its name: the categories of
examples/llama_decode.py's per-kernel profile (`--profile-out`). Plain Python (no torch), so
that tests/python/test_e2e_profile_categories.py runs wherever the CPU tests run."""


def kernel_category(name: str) -> str:
    """The part of a decode step a CUDA kernel belongs to (by its name)."""
    n = name.lower()
    if "mixgemm" in n or "smallm" in n:
        return "mixgemm-quantize" if "quantiz" in n else "mixgemm-gemm"
    # Inductor names its generated kernels after the ops they fuse: "..._add_gemm_mean_..." is an
    # RMSNorm + residual kernel that reads mixgemm.gemm's output, "..._scaled_dot_product_cudnn_attention_..."
    # prepares SDPA's inputs. Judge them by their origin, not by those words (session 40's profile
    # counted 97 such kernels per W4A16 step as cuBLAS GEMMs).
    if n.startswith("triton_"):
        return "inductor"
    if any(k in n for k in ("gemm", "nvjet", "xmma", "cutlass", "gemv", "cublas")):
        return "cublas-gemm"
    if any(k in n for k in ("flash", "fmha", "attention", "softmax", "sdpa")):
        return "attention"
    return "other"
