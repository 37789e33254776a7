"""The end-to-end benchmark's decode harness (examples/llama_decode.py) on the CPU: fusing
q/k/v and gate/up into one GEMM each must not change what the model computes. A tiny
plain-torch Llama in float16; no GPU, no mixgemm kernel involved."""
import importlib.util
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]


def load_example():
    spec = importlib.util.spec_from_file_location("llama_decode", ROOT / "examples" / "llama_decode.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tiny_model(ld, seed, layers):
    """A tiny plain-torch Llama in float16 (the harness caches are f16), seeded: returns the
    config, the device, the model and the harness's view of it."""
    torch.manual_seed(seed)
    c = dict(hidden=64, inter=96, layers=layers, heads=4, kv_heads=2, vocab=50, theta=10000.0)
    dev = torch.device("cpu")
    pl = ld.PlainLlama(c, dev, dtype=torch.float16).eval()
    parts = ld.SimpleNamespace(embed_tokens=pl.embed_tokens, layers=list(pl.layers), norm=pl.norm, lm_head=pl.lm_head)
    return c, dev, pl, parts


def test_fused_projections_compute_the_same_model():
    ld = load_example()
    c, dev, pl, parts = tiny_model(ld, seed=0, layers=2)
    prompt = torch.randint(0, c["vocab"], (3, 5))
    with torch.no_grad():
        ref = ld.Harness(parts, c, 3, 8, dev).prefill(prompt).clone()
        q_before = pl.layers[0].self_attn.q_proj.weight.clone()
        ld.fuse_projections(parts)
        assert ld.linear_names(parts.layers[0]) == ld.FUSED_LINEARS
        # the model's own weights are views into the fused ones: same values, no copy
        assert torch.equal(pl.layers[0].self_attn.q_proj.weight, q_before)
        assert pl.layers[0].self_attn.q_proj.weight.data_ptr() == parts.layers[0]._qkv.weight.data_ptr()
        n_q = c["heads"] * (c["hidden"] // c["heads"])
        assert parts.layers[0]._qkv.weight.shape == (n_q + 2 * c["kv_heads"] * (c["hidden"] // c["heads"]), c["hidden"])
        assert parts.layers[0]._gate_up.weight.shape == (2 * c["inter"], c["hidden"])
        fused = ld.Harness(parts, c, 3, 8, dev).prefill(prompt)
    torch.testing.assert_close(fused.float(), ref.float(), rtol=2e-3, atol=2e-3)
    # and the fused model is not the trivial one: the logits depend on the prompt
    assert fused.std() > 0


def test_nonfinite_trace_names_the_first_bad_op(capsys):
    ld = load_example()
    c, dev, pl, parts = tiny_model(ld, seed=1, layers=3)
    prompt = torch.randint(0, c["vocab"], (2, 5))
    with torch.no_grad():
        ld.fuse_projections(parts)
        parts.layers[1]._gate_up.weight[3, :] = 60000.0  # layer 1's gate_up output overflows f16
        logits = ld.Harness(parts, c, 2, 8, dev).prefill(prompt)
        assert not bool(torch.isfinite(logits).all())
        ld.trace_nonfinite(parts, c, 2, prompt, dev, "tiny")
    out = capsys.readouterr().out
    assert "first non-finite output: layer 1 gate_up" in out, out


def test_compiled_step_decodes_the_same_tokens():
    """--mode compile runs the step compiled by inductor (fullgraph, in-place KV cache and
    token writes): it must decode the same tokens and write the same cache as the eager step."""
    ld = load_example()
    c, dev, pl, parts = tiny_model(ld, seed=0, layers=2)
    ld.fuse_projections(parts)
    prompt = torch.randint(0, c["vocab"], (2, 5))
    results = []
    with torch.no_grad():
        for compiled in (False, True):
            hs = ld.Harness(parts, c, 2, 12, dev)
            logits = hs.prefill(prompt)
            hs.tok.copy_(logits[:, -1].argmax(-1, keepdim=True))
            hs.pos.fill_(5)
            step = torch.compile(hs.step, fullgraph=True, dynamic=False) if compiled else hs.step
            toks = []
            for _ in range(4):
                step()
                toks.append(hs.tok.clone())
            assert int(hs.pos) == 9
            results.append((torch.cat(toks, 1), hs.k_cache.clone(), hs.v_cache.clone()))
    (t0, k0, v0), (t1, k1, v1) = results
    assert torch.equal(t0, t1)
    # f16 cache entries: inductor may order the projection's f32 sums and the rotary math
    # differently, so an entry may land one f16 rounding away. The operands of that last
    # rounding (the rotary's two products, the projection's sum) are as large as the
    # tensor's largest entries, so one ulp at that scale bounds the difference:
    # |diff| <= 2^-10 max|ref|.
    for got, ref in ((k1, k0), (v1, v0)):
        torch.testing.assert_close(got.float(), ref.float(), rtol=0.0,
                                   atol=2.0**-10 * float(ref.float().abs().max()))
    assert k0.abs().sum() > 0  # the steps wrote the cache


def test_gqa_attention_decodes_as_the_expanded_cache():
    """--attn gqa (SDPA's enable_gqa on the cache as stored) computes the decode attention of
    --attn expand (the KV heads repeated to the query heads first): the same greedy tokens, and
    logits within 4 f16 ulps of the largest one (a backend may round the attention output
    differently; one f16 rounding there moves a logit by far less through the two layers' f16
    roundings). The tiny model has 4 query heads on 2 KV heads."""
    ld = load_example()
    c, dev, pl, parts = tiny_model(ld, seed=2, layers=2)
    ld.fuse_projections(parts)
    prompt = torch.randint(0, c["vocab"], (2, 5))
    results = []
    saved = ld.ATTN
    try:
        with torch.no_grad():
            for attn in ("expand", "gqa"):
                ld.ATTN = attn
                hs = ld.Harness(parts, c, 2, 12, dev)
                logits = hs.prefill(prompt)
                hs.tok.copy_(logits[:, -1].argmax(-1, keepdim=True))
                hs.pos.fill_(5)
                steps = []
                for _ in range(4):
                    steps.append(hs.forward(hs.tok, hs.pos.view(1), prefill=False)[:, -1].float())
                    hs.tok.copy_(steps[-1].argmax(-1, keepdim=True))
                    hs.pos.add_(1)
                results.append(torch.stack(steps))
    finally:
        ld.ATTN = saved
    ref, got = results
    assert torch.equal(ref.argmax(-1), got.argmax(-1))
    torch.testing.assert_close(got, ref, rtol=0.0, atol=2.0**-8 * float(ref.abs().max()))


def test_dequantized_reference_holds_the_kernels_weights():
    """The e2e script's logits_rel_err_dq compares a W4A16 model with the fp16 model on its
    dequantized weights; those weights must be exactly what the library's reference says the
    kernels multiply with (mixgemm.dequantize_weights), for every linear layer."""
    mixgemm = pytest.importorskip("mixgemm")
    pytest.importorskip("mixgemm.torch")
    np = pytest.importorskip("numpy")
    ld = load_example()
    c, dev, pl, parts = tiny_model(ld, seed=3, layers=2)
    ld.fuse_projections(parts)
    kw = dict(weight_type="u4b8", group_size=32, act_type="f16")
    with torch.no_grad():
        dq = ld.dequantized_parts(parts, kw, keep_lm_head_fp16=False)
    assert dq is not None
    pairs = [(ld._get(layer, p), dq.layers[i]._q[p]) for i, layer in enumerate(parts.layers) for p in ld.linear_names(layer)]
    pairs.append((parts.lm_head, dq.lm_head))
    for lin, d in pairs:
        qw = mixgemm.quantize_weights(lin.weight.detach().t().float().numpy(), weight_type="u4b8", group_size=32,
                                      scale_type="f16")
        ref = mixgemm.dequantize_weights(qw, act_type="f16")
        got = d.weight.detach().t().double().numpy()
        assert got.dtype == np.float64 and np.array_equal(got, ref), "dequantized weights differ from the reference"
    # W4A8 variants quantize their activations as well: no fp16 model computes what they do.
    assert ld.dequantized_parts(parts, dict(weight_type="u4b8", group_size=32, act_type="s8"), False) is None
