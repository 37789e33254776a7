"""The end-to-end benchmark's per-kernel profile categories (examples/decode_profile.py): plain
Python, no torch, no GPU."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_profile():
    spec = importlib.util.spec_from_file_location("decode_profile", ROOT / "examples" / "decode_profile.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_kernel_categories_split_gemm_from_the_rest():
    """The profile's split of a decode step: our kernels, cuBLAS GEMMs, attention, the rest."""
    cat = load_profile().kernel_category
    assert cat("void mixgemm::kernels::smallm::smallm_kernel<(mixgemm::AType)0, 4, 8>(...)") == "mixgemm-gemm"
    assert cat("void mixgemm::kernels::quantize_activations_kernel<...>") == "mixgemm-quantize"
    assert cat("nvjet_hsh_64x8_64x16_4x1_v_bz_splitK_TNT") == "cublas-gemm"
    assert cat("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize64x64x64") == "cublas-gemm"
    assert cat("void pytorch_flash::flash_fwd_splitkv_kernel<...>") == "attention"
    assert cat("void at::native::vectorized_elementwise_kernel<4, at::native::...>") == "other"
    # cuBLASLt's split-K reduction belongs to its GEMM; cuDNN's SDPA kernel is attention.
    assert cat("void cublasLt::splitKreduce_kernel<32, 16, int, float, __half, ...>") == "cublas-gemm"
    assert cat("cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_3_64x64x128") == "attention"
    # Inductor's kernels are named after the ops they fuse, ours and SDPA's included: they are
    # neither GEMMs nor attention (names from a compiled Llama-3-8B step, s40-stepgemms/).
    assert cat("triton_red_fused__to_copy_add_gemm_mean_mul_pow_rsqrt_view_17") == "inductor"
    assert cat("triton_poi_fused_gemm_mul_silu_split_view_8") == "inductor"
    assert cat("triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_clone") == "inductor"
