"""CPU tests of the mixgemm package: NumPy only (CI runs these on a machine without a GPU)."""
import os
import re
from pathlib import Path

import numpy as np
import pytest

import mixgemm as mg
from mixgemm import _C


@pytest.fixture
def rng():
    return np.random.default_rng(20261130)


def weights(rng, K, N, scale=0.02):
    return (rng.standard_normal((K, N)) * scale).astype(np.float32)


def test_import_and_errors():
    assert mg.__version__
    assert issubclass(mg.InvalidArgumentError, mg.MixgemmError)
    assert issubclass(mg.InvalidArgumentError, ValueError)
    assert issubclass(mg.NotSupportedError, NotImplementedError)
    assert issubclass(mg.CudaError, RuntimeError)
    # The C++ message arrives unchanged.
    with pytest.raises(mg.InvalidArgumentError, match=r"^mixgemm::check_prepack_shape: N=10 is not a multiple of 16"):
        mg.prepack(np.zeros((128, 10), np.uint8))
    with pytest.raises(mg.InvalidArgumentError, match="unknown type name 'u5'"):
        mg.supported_schedules(weight_type="u5")


@pytest.mark.parametrize("wt,g,st", [("u4b8", 128, "f16"), ("u4", 64, "f16"), ("u4b8", 128, "bf16"),
                                      ("u8b128", 0, "f16"), ("u8", 128, "bf16")])
def test_rtn_error_bound(rng, wt, g, st):
    K, N = 256, 64
    w = weights(rng, K, N)
    qw = mg.quantize_weights(w, "rtn", wt, g, st)
    assert qw.q.shape == (K, N) and qw.q.dtype == np.uint8
    assert qw.has_zeros == (wt in ("u4", "u8"))
    if g:
        assert qw.group_scales.shape == (K // g, N)
        s = qw.group_scales.astype(np.float64) if st == "f16" else \
            (qw.group_scales.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        step = np.repeat(s, g, axis=0)
    else:
        assert qw.group_scales is None and qw.channel_scales.shape == (N,)
        step = np.broadcast_to(qw.channel_scales.astype(np.float64), (K, N))
    dq = mg.dequantize_weights(qw, "bf16" if st == "bf16" else "f16")
    # semantics 7.1: |w - (q - B|z) s| <= s / 2, plus the 16-bit roundings of the kernel
    # weight (4.1: one of the product; with zero points one more of zs = -(z s), |zs| <= qmax s)
    eps = 2.0 ** -8 if st == "bf16" else 2.0 ** -11
    qmax = 15 if wt.startswith("u4") else 255
    assert np.all(np.abs(dq - w) <= step * 0.5 + (np.abs(dq) + qmax * step) * eps + 1e-12)


def test_qqq_and_fp8(rng):
    K, N = 256, 64
    w = weights(rng, K, N)
    qq = mg.quantize_weights(w, "qqq", "u4b8", 128)
    assert qq.scale_type == "u8" and qq.group_scales.dtype == np.uint8
    assert qq.group_scales.min() >= 1 and qq.group_scales.max() <= 16
    assert qq.channel_scales.dtype == np.float32
    err = np.linalg.norm(mg.dequantize_weights(qq, "s8") - w) / np.linalg.norm(w)
    assert err < 0.2
    f8 = mg.quantize_weights(w, "fp8", "u4b8", 128)
    assert f8.scale_type == "f16" and f8.channel_scales is not None
    s = np.repeat(f8.group_scales.astype(np.float64), 128, axis=0)
    assert np.all(np.abs((f8.q.astype(np.float64) - 8) * s) <= 448)
    err = np.linalg.norm(mg.dequantize_weights(f8, "e4m3") - w) / np.linalg.norm(w)
    assert err < 0.2


@pytest.mark.parametrize("wt,at", [("u4b8", "f16"), ("u4", "bf16"), ("u8b128", "f16"), ("u4b8", "s8"),
                                    ("u4b8", "e4m3")])
def test_prepack_roundtrip(rng, wt, at):
    K, N = 128, 48
    qmax = 15 if wt.startswith("u4") else 255
    q = rng.integers(0, qmax + 1, size=(K, N), dtype=np.uint8)
    b = mg.prepack(q, weight_type=wt, act_type=at)
    assert b.dtype == np.uint8 and b.shape == (mg.prepacked_size(K, N, wt),)
    assert np.array_equal(mg.unpack(b, K, N, wt, at), q)


def test_gptq_awq_formats(rng):
    K, N, G = 256, 64, 2
    q = rng.integers(0, 16, size=(K, N), dtype=np.uint8)
    z = rng.integers(1, 16, size=(G, N), dtype=np.uint8)
    s = (rng.random((G, N)) * 0.01 + 0.001).astype(np.float16)
    qweight = _C.gptq_pack_qweight(q)
    assert qweight.shape == (K // 8, N) and qweight.dtype == np.int32
    qzeros = _C.gptq_pack_qzeros(z)
    qw = mg.from_gptq(qweight, qzeros, s)
    assert qw.type == "u4" and qw.group_size == 128 and np.array_equal(qw.q, q) and np.array_equal(qw.zeros, z)
    # GPTQ words prepack to the same bytes as the unpacked integers.
    assert np.array_equal(mg.prepack(qweight, format="gptq"), mg.prepack(q))
    # Symmetric checkpoint: every z = 8 -> u4b8 without zero points.
    sym = mg.from_gptq(qweight, _C.gptq_pack_qzeros(np.full((G, N), 8, np.uint8)), s)
    assert sym.type == "u4b8" and sym.zeros is None
    # AWQ
    aq = _C.awq_pack_qweight(q)
    assert aq.shape == (K, N // 8)
    aw = mg.from_awq(aq, _C.awq_pack_qzeros(z), s)
    assert aw.type == "u4" and np.array_equal(aw.q, q) and np.array_equal(aw.zeros, z)
    assert np.array_equal(mg.prepack(aq, format="awq"), mg.prepack(q))


def test_gptq_act_order(rng):
    K, N, G = 256, 32, 2
    q = rng.integers(0, 16, size=(K, N), dtype=np.uint8)
    g_idx = rng.permutation(np.repeat(np.arange(G, dtype=np.int32), K // G)).astype(np.int32)
    s = np.full((G, N), 0.01, np.float16)
    qw = mg.from_gptq(_C.gptq_pack_qweight(q), _C.gptq_pack_qzeros(np.full((G, N), 8, np.uint8)), s, g_idx)
    assert qw.perm is not None and qw.group_size == K // G
    assert np.array_equal(qw.q, q[qw.perm])
    assert np.all(np.diff(g_idx[qw.perm]) >= 0)
    # The GEMM with the permuted activations equals the original one.
    a = rng.standard_normal((3, K)).astype(np.float16)
    w = (q.astype(np.float64) - 8) * 0.01  # s = 0.01 in f16 is not exact; compare loosely
    out = mg.reference_gemm(a, qw).astype(np.float64)
    assert np.allclose(out, a.astype(np.float64) @ w, rtol=2e-2, atol=2e-2)


def test_reference_gemm_matches_numpy(rng):
    K, N, M = 256, 64, 5
    w = weights(rng, K, N)
    qw = mg.quantize_weights(w, "rtn", "u4", 128)
    a = rng.standard_normal((M, K)).astype(np.float16)
    out = mg.reference_gemm(a, qw)
    assert out.shape == (M, N) and out.dtype == np.float16
    ref = a.astype(np.float64) @ mg.dequantize_weights(qw, "f16")
    assert np.allclose(out.astype(np.float64), ref, rtol=1e-2, atol=1e-3)
    bias = rng.standard_normal(N).astype(np.float16)
    out_b = mg.reference_gemm(a, qw, bias=bias).astype(np.float64)
    assert np.allclose(out_b, ref + bias.astype(np.float64), rtol=1e-2, atol=2e-3)


def test_s8_path_reference(rng):
    K, N, M = 256, 64, 4
    w = weights(rng, K, N)
    qw = mg.quantize_weights(w, "qqq", "u4b8", 128)
    a = rng.standard_normal((M, K)).astype(np.float32)
    q, tok = mg.quantize_activations(a, "s8")
    assert q.dtype == np.int8 and tok.shape == (M,)
    out = mg.reference_gemm(q, qw, a_type="s8", token_scales=tok).astype(np.float64)
    ref = a.astype(np.float64) @ w
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < 0.2


def test_quantize_activations_examples():
    a = np.array([[1, -2, 0.5, 0]], np.float32)
    q, tok = mg.quantize_activations(a, "s8")  # semantics section 6's example
    assert q.tolist() == [[64, -127, 32, 0]] and tok[0] == np.float32(2) / np.float32(127)
    q8, tok8 = mg.quantize_activations(a, "e4m3")
    assert q8.dtype == np.uint8 and tok8[0] == np.float32(2) / np.float32(448)
    qs, toks = mg.quantize_activations(a, "s8", static_scale=0.5)
    assert qs.tolist() == [[2, -4, 1, 0]] and toks[0] == 0.5
    with pytest.raises(mg.InvalidArgumentError, match="not finite"):
        mg.quantize_activations(np.array([[np.inf, 1]], np.float32), "s8")


def test_schedules_and_workspace():
    names = mg.supported_schedules("f16", "u4b8")
    assert names and all(isinstance(n, str) for n in names)
    assert mg.choose_schedule(1, 4096, 4096, group_size=128) in names
    # An M that fits the token tiles badly runs as two row slices: the plan names both launches.
    plan = mg.describe_plan(320, 8192, 21760, group_size=128)
    if os.environ.get("MIXGEMM_ROW_SPLIT") == "0":  # the switch for A/B timing: one launch
        assert plan == mg.choose_schedule(320, 8192, 21760, group_size=128)
    else:
        head, tail = plan.split("[256]+")
        assert head == mg.choose_schedule(320, 8192, 21760, group_size=128) and head in names and tail in names
    assert mg.describe_plan(1, 4096, 4096, group_size=128) == mg.choose_schedule(1, 4096, 4096, group_size=128)
    assert mg.workspace_size(1, 4096, 4096, group_size=128) > 0
    assert mg.supported_schedules("s8", "u4b8") and mg.supported_schedules("e4m3", "u4b8")


def test_prepack_zeros(rng):
    z = np.array([[7, 0]], np.uint8)
    s = np.array([[1 / 3, 0.5]], np.float16)
    zs = mg.prepack_zeros(z, s, "f16")
    # semantics 4.1's worked example: RN_f16(-(7 * RN_f16(1/3))) = -2.33203125
    assert zs.dtype == np.float16 and zs[0, 0] == np.float16(-2.33203125) and zs[0, 1] == 0


def test_gpu_entry_points_refuse_host_arrays():
    with pytest.raises(mg.InvalidArgumentError, match="GPU array"):
        mg.gemm(np.zeros((1, 128), np.float16), np.zeros(8192, np.uint8), N=128)


def test_dlpack_gemm_keeps_a_workspace_per_stream():
    # mg.gemm's own workspaces (no workspace=): calls on one stream share one, grown in place of the
    # old; another stream gets its own, so concurrent streams never share split-K partials (until
    # session 75 one per device served every stream). NumPy arrays stand in for the GPU library's.
    a = np.zeros((1, 64), np.float16)
    saved = dict(mg._workspaces)
    mg._workspaces.clear()
    try:
        w1 = mg._workspace_for(a, 1000, 11)
        assert w1.dtype == np.uint8 and w1.shape[0] >= 1000 and not w1.any()
        assert mg._workspace_for(a, 500, 11) is w1
        w2 = mg._workspace_for(a, 1000, 22)
        assert w2 is not w1
        w3 = mg._workspace_for(a, 5000, 11)
        assert w3.shape[0] >= 5000 and mg._workspace_for(a, 1000, 22) is w2
        assert sorted(k[2] for k in mg._workspaces) == [11, 22]
        # A workspace a CUDA graph captured outlives its replacement (stand-in capture status).
        capturing = [True]
        real = mg._arrays.is_capturing
        mg._arrays.is_capturing = lambda x: capturing[0]
        try:
            assert mg._workspace_for(a, 100, 22) is w2
            capturing[0] = False
            w4 = mg._workspace_for(a, 9000, 22)
            assert w4 is not w2 and any(r is w2 for r in mg._retired_workspaces)
            assert not any(r is w3 for r in mg._retired_workspaces)
            mg._workspace_for(a, 9000, 11)  # w3 was never captured: not kept
            assert not any(r is w3 for r in mg._retired_workspaces)
        finally:
            mg._arrays.is_capturing = real
    finally:
        mg._workspaces.clear()
        mg._workspaces.update(saved)
        mg._ws_in_graph.clear()
        mg._retired_workspaces.clear()


def test_sm_count_sizes_the_workspace_and_is_checked():
    # sm_count (the SMs of a green context's stream): 0 is the device's count (132 without a
    # device), a count outside 0..that is refused by name; the partial-sum count takes it too.
    args = (1, 8192, 21760)
    default = mg.workspace_size(*args, group_size=128)
    assert mg.workspace_size(*args, group_size=128, sm_count=0) == default
    assert mg.workspace_size(*args, group_size=128, sm_count=66) >= 0
    assert mg.partial_sums_count(*args, group_size=128, sm_count=0) == mg.partial_sums_count(*args, group_size=128)
    assert mg.partial_sums_count(*args, group_size=128, sm_count=66) >= 2
    for bad in (-1, 100000):
        with pytest.raises(mg.InvalidArgumentError, match=rf"workspace_size: sm_count={bad} is not a number of SMs"):
            mg.workspace_size(*args, group_size=128, sm_count=bad)
        with pytest.raises(mg.InvalidArgumentError, match=rf"partial_sums_count: sm_count={bad}"):
            mg.partial_sums_count(*args, group_size=128, sm_count=bad)


def test_stub_lists_every_function():
    stub = (Path(mg.__file__).parent / "_C.pyi").read_text()
    stubbed = (set(re.findall(r"^def (\w+)\(", stub, re.M)) | set(re.findall(r"^class (\w+)\(", stub, re.M))
               | set(re.findall(r"^(\w+): ", stub, re.M)))
    public = {n for n in dir(_C) if not n.startswith("_")}
    assert public <= stubbed, public - stubbed


def test_extension_exports_only_its_init_symbol():
    """python/src/_C.map: nothing but PyInit__C may be interposable. Where the compiler
    links libstdc++ statically (the H200 image), an exported copy of it was half-replaced
    by numpy's libstdc++ and `ostream << long` crashed (docs/python.md)."""
    import shutil
    import subprocess
    import sys

    if not sys.platform.startswith("linux") or shutil.which("nm") is None:
        pytest.skip("needs Linux and binutils' nm")
    out = subprocess.run(["nm", "-D", "--defined-only", _C.__file__], capture_output=True, text=True, check=True)
    exported = {line.split()[-1] for line in out.stdout.splitlines() if line.strip()}
    assert exported == {"PyInit__C"}, sorted(exported)[:20]
    # The call that crashed: an error message that formats an integer.
    with pytest.raises(mg.InvalidArgumentError, match="N=24"):
        mg.prepack(np.zeros((64, 24), np.uint8))


def test_partial_sums_count_without_gpu():
    """The S of gemm_partial_sums is pure host arithmetic (132 SMs without a GPU): Llama-3-8B's o projection at
    M = 1 runs 16 column stripes of 256, each split into 8 k-parts on 128 of the 132 SMs (the cluster geometry);
    its gate_up (224 stripes of 128, 528 CTA slots) the stream-K partition, whose stripes meet 4 CTAs at most;
    a 128256-column lm_head (1002 stripes on 528 slots) 2 at most; M = 64 runs the sm90 family: no partial-sum
    form (0)."""
    assert mg.partial_sums_count(1, 4096, 4096, "f16", "u4b8", group_size=128) == 8
    assert mg.partial_sums_count(1, 28672, 4096, "f16", "u4b8", group_size=128) == 4
    assert mg.partial_sums_count(1, 128256, 4096, "f16", "u4b8", group_size=128) == 2
    assert mg.partial_sums_count(64, 4096, 4096, "f16", "u4b8", group_size=128) == 0
    with pytest.raises(mg.InvalidArgumentError, match="schedule='nope'"):
        mg.partial_sums_count(1, 4096, 4096, "f16", "u4b8", group_size=128, schedule="nope")


def test_typed_arrays_must_hold_the_type_they_are_read_as():
    # gemm reads each operand as a mixgemm type; a float array of another type but the same size
    # (float32 token scales are fine, float16 ones are not f32) is refused, raw-bit arrays pass.
    mg._require_type("gemm", "group_scales", np.zeros(4, np.float16), "f16")
    mg._require_type("gemm", "group_scales", np.zeros(4, np.uint16), "bf16")  # bf16 bits
    mg._require_type("gemm", "token_scales", np.zeros(4, np.float32), "f32")
    with pytest.raises(mg.InvalidArgumentError, match="group_scales is a float32 array but is read as 'f16'"):
        mg._require_type("gemm", "group_scales", np.zeros(4, np.float32), "f16")
    with pytest.raises(mg.InvalidArgumentError, match="token_scales is a float16 array but is read as 'f32'"):
        mg._require_type("gemm", "token_scales", np.zeros(4, np.float16), "f32")
