#!/usr/bin/env python3
"""End-to-end decode benchmark: Llama-shaped models, fp16 against mixgemm QuantLinear.

For each model shape (Llama-3-8B, Llama-2-7B; random weights, nothing downloaded) it
builds the fp16 model — with `transformers` from a LlamaConfig when that package is
importable, else with the plain-torch modules below (same module names, same math) — and
for every variant

    fp16        the model as built (cuBLAS through nn.Linear)
    w4a16       every nn.Linear -> QuantLinear u4b8 g128, f16 activations (RTN)
    w4a16-ps    the same, the decode GEMMs returning their split-K partial sums, which the
                next kernel sums (QuantLinear(partial_sums=True); gains under --mode compile)
    w4a8-s8     every nn.Linear -> QuantLinear u4b8 g128 QQQ, s8 per-token activations
    w4a8-e4m3   every nn.Linear -> QuantLinear u4b8 g128 rescaled for fp8, e4m3 activations
    w4a8-s8-ps, w4a8-e4m3-ps   the W4A8 variants with partial sums (s32 / f32 parts; the next
                kernel sums them and applies the token x channel scales)

runs a short prompt (prefill, eager) and then greedy decode of --new-tokens tokens at each
batch size, one decode step replayed as a CUDA graph (the same harness and the same graph
capture for every variant). --mode compile compiles the step with torch.compile (inductor
fuses the norms, RoPE, residual adds and SiLU, as an engine's own kernels would) before the
capture; --profile-out writes where a step's GPU time goes (our GEMMs, cuBLAS, attention,
other kernels, idle). The quantized variants are made from the fp16 model's weights,
so the logits error is quantization error alone. Written to --out (CSV):

    model, batch, variant, tokens_per_s, peak_mem_gb, weight_gb, logits_rel_err, ...

  tokens_per_s    batch * new_tokens / decode wall time (CUDA events; prefill excluded)
  peak_mem_gb     peak torch-allocated GPU memory of the variant's decode run (weights,
                  KV cache, activations, graph pool, mixgemm workspace), 1e9 bytes; the
                  fp16 weights that stay resident only to build later variants are
                  subtracted for the quantized variants
  weight_gb       bytes of the variant's weights (embedding, norms, linear layers incl.
                  lm_head: prepacked int4 + scales for the quantized ones), 1e9 bytes
  logits_rel_err  ||logits - logits_fp16||_F / ||logits_fp16||_F over every prompt position
                  of that batch's prompt (teacher-forced, same tokens; the fp16 prefill runs on its
                  own when fp16 is not among --variants)
  logits_rel_err_dq  the same against the fp16 model whose linear layers hold the variant's
                  dequantized weights, w = RN_f16((q - 8) s) (docs/semantics.md): what the
                  kernels add to the quantization, i.e. accumulation order and output rounding
                  (16-bit-activation variants; empty for the W4A8 ones, whose activations are
                  quantized too)
  linear_rel_err  largest relative error of layer 0's quantized linears against the fp16
                  ones on one random input (one layer's quantization error; a random-weight
                  model amplifies it over its layers into logits_rel_err)

The decode harness (static KV cache, SDPA attention on the grouped cache: --attn, rotary
embeddings) is this file's; it calls the model's own modules (embed_tokens,
layers[i].input_layernorm, self_attn.q_proj, ..., mlp.down_proj, norm, lm_head). With transformers present, the harness's fp16 prefill
logits are checked against the transformers forward and the difference is printed.
"""
from __future__ import annotations

import argparse
import csv
import gc
import math
import os
import sys
import time
from types import SimpleNamespace
from typing import Dict, List, Optional

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # decode_profile.py beside this file
from decode_profile import kernel_category  # noqa: E402

MODELS = {
    # hidden, intermediate, layers, heads, kv heads, vocab, rope theta (rope scaling left out)
    "llama3-8b": dict(hidden=4096, inter=14336, layers=32, heads=32, kv_heads=8, vocab=128256, theta=500000.0),
    "llama2-7b": dict(hidden=4096, inter=11008, layers=32, heads=32, kv_heads=32, vocab=32000, theta=10000.0),
}
VARIANTS = {
    "fp16": None,
    "w4a16": dict(weight_type="u4b8", group_size=128, act_type="f16"),
    # The same layers, decode GEMMs returning their split-K partial sums, summed in the consumer's
    # fused kernel (QuantLinear(partial_sums=True): the same bits, one launch fewer per GEMM).
    "w4a16-ps": dict(weight_type="u4b8", group_size=128, act_type="f16", partial_sums=True),
    "w4a8-s8": dict(weight_type="u4b8", group_size=128, act_type="s8"),
    "w4a8-e4m3": dict(weight_type="u4b8", group_size=128, act_type="e4m3"),
    "w4a8-s8-ps": dict(weight_type="u4b8", group_size=128, act_type="s8", partial_sums=True),
    "w4a8-e4m3-ps": dict(weight_type="u4b8", group_size=128, act_type="e4m3", partial_sums=True),
}
EPS = 1e-5
GB = 1e9
# Decode attention over the grouped KV cache (--attn): "gqa" (default since session 50) passes the
# KV heads as stored (SDPA's enable_gqa), as an engine's attention does; "expand" first materializes
# the cache with its heads repeated to the query heads (H / KV times), as transformers' eager path
# does and as this harness did until session 50. The same logits; gqa saves ~97 us per Llama-3-8B
# step for every variant (bench/results/2026-12-03-h200/s50-attn/).
ATTN = "gqa"


# ---- the plain-torch Llama (used when transformers is missing, or with --no-transformers) ----
class RMSNorm(nn.Module):
    def __init__(self, n, eps=EPS, device=None, dtype=None):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n, device=device, dtype=dtype))
        self.variance_epsilon = eps

    def forward(self, x):
        dt = x.dtype
        x = x.float()
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.variance_epsilon)
        return self.weight * x.to(dt)


def _linear(k, n, device, dtype):
    lin = nn.Linear(k, n, bias=False, device=device, dtype=dtype)
    with torch.no_grad():
        lin.weight.normal_(0.0, 0.02)
    return lin


class PlainLlama(nn.Module):
    def __init__(self, c, device, dtype=torch.float16):
        super().__init__()
        h, hd = c["hidden"], c["hidden"] // c["heads"]
        self.embed_tokens = nn.Embedding(c["vocab"], h, device=device, dtype=dtype)
        with torch.no_grad():
            self.embed_tokens.weight.normal_(0.0, 0.02)
        self.layers = nn.ModuleList()
        for _ in range(c["layers"]):
            layer = nn.Module()
            layer.input_layernorm = RMSNorm(h, device=device, dtype=dtype)
            layer.post_attention_layernorm = RMSNorm(h, device=device, dtype=dtype)
            layer.self_attn = nn.Module()
            layer.self_attn.q_proj = _linear(h, c["heads"] * hd, device, dtype)
            layer.self_attn.k_proj = _linear(h, c["kv_heads"] * hd, device, dtype)
            layer.self_attn.v_proj = _linear(h, c["kv_heads"] * hd, device, dtype)
            layer.self_attn.o_proj = _linear(c["heads"] * hd, h, device, dtype)
            layer.mlp = nn.Module()
            layer.mlp.gate_proj = _linear(h, c["inter"], device, dtype)
            layer.mlp.up_proj = _linear(h, c["inter"], device, dtype)
            layer.mlp.down_proj = _linear(c["inter"], h, device, dtype)
            self.layers.append(layer)
        self.norm = RMSNorm(h, device=device, dtype=dtype)
        self.lm_head = _linear(h, c["vocab"], device, dtype)


def build_model(c, device, use_transformers):
    """Returns (parts, hf_model_or_None, built_with)."""
    if use_transformers:
        try:
            from transformers import LlamaConfig, LlamaForCausalLM
        except Exception as e:  # noqa: BLE001
            print(f"[e2e] transformers not importable ({type(e).__name__}: {e}); using the plain-torch model")
            use_transformers = False
    if use_transformers:
        cfg = LlamaConfig(hidden_size=c["hidden"], intermediate_size=c["inter"], num_hidden_layers=c["layers"],
                          num_attention_heads=c["heads"], num_key_value_heads=c["kv_heads"], vocab_size=c["vocab"],
                          rope_theta=c["theta"], rms_norm_eps=EPS, max_position_embeddings=4096,
                          tie_word_embeddings=False, attention_bias=False, mlp_bias=False, hidden_act="silu",
                          initializer_range=0.02)
        cfg._attn_implementation = "sdpa"
        old = torch.get_default_dtype()
        torch.set_default_dtype(torch.float16)
        try:
            with torch.device(device):
                hf = LlamaForCausalLM(cfg)
        finally:
            torch.set_default_dtype(old)
        hf = hf.to(device=device, dtype=torch.float16).eval()
        m = hf.model
        parts = SimpleNamespace(embed_tokens=m.embed_tokens, layers=list(m.layers), norm=m.norm, lm_head=hf.lm_head)
        return parts, hf, "transformers"
    pl = PlainLlama(c, device).eval()
    parts = SimpleNamespace(embed_tokens=pl.embed_tokens, layers=list(pl.layers), norm=pl.norm, lm_head=pl.lm_head)
    return parts, None, "plain-torch"


LINEARS = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj", "mlp.gate_proj",
           "mlp.up_proj", "mlp.down_proj")
# With --fuse (the default, as inference engines run these layers: vLLM's QKVParallelLinear
# and MergedColumnParallelLinear) q/k/v and gate/up run as one GEMM each, for the fp16 and
# the quantized variants alike.
FUSED = {"_qkv": ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"),
         "_gate_up": ("mlp.gate_proj", "mlp.up_proj")}
FUSED_LINEARS = ("_qkv", "self_attn.o_proj", "_gate_up", "mlp.down_proj")


def _get(mod, path):
    for p in path.split("."):
        mod = getattr(mod, p)
    return mod


def linear_names(layer):
    """The linear layers the harness runs for this layer (fused or the model's own)."""
    return FUSED_LINEARS if hasattr(layer, "_qkv") else LINEARS


def fuse_projections(parts):
    """Adds layer._qkv and layer._gate_up: one nn.Linear over the concatenated weights (rows
    q, k, v and gate, up). The model's own q/k/v/gate/up weights become views into them, so
    no weight is stored twice and the transformers forward still sees the same values."""
    for layer in parts.layers:
        for name, members in FUSED.items():
            mods = [_get(layer, p) for p in members]
            w = torch.cat([m.weight.data for m in mods], 0)
            fused = nn.Linear(w.shape[1], w.shape[0], bias=False, device=w.device, dtype=w.dtype)
            fused.weight.data = w
            off = 0
            for m in mods:
                assert m.bias is None, "fused projections carry no bias (Llama)"
                n = m.weight.shape[0]
                m.weight.data = w[off:off + n]
                off += n
            setattr(layer, name, fused)


class Layer:
    """One decoder layer's modules, flattened (the harness's view of a model layer)."""

    def __init__(self, layer, linears=None):
        self.ln1, self.ln2 = layer.input_layernorm, layer.post_attention_layernorm
        lin = linears if linears is not None else {p: _get(layer, p) for p in linear_names(layer)}
        self.o, self.down = lin["self_attn.o_proj"], lin["mlp.down_proj"]
        self.qkv, self.gate_up = lin.get("_qkv"), lin.get("_gate_up")
        if self.qkv is None:
            self.q, self.k, self.v = lin["self_attn.q_proj"], lin["self_attn.k_proj"], lin["self_attn.v_proj"]
            self.gate, self.up = lin["mlp.gate_proj"], lin["mlp.up_proj"]


def quantized_parts(parts, variant_kw, keep_lm_head_fp16):
    """A copy of `parts` with every nn.Linear replaced by QuantLinear.from_linear (the fp16
    modules are left untouched for the later variants)."""
    from mixgemm.torch import QuantLinear

    return map_linears(parts, lambda lin: QuantLinear.from_linear(lin, **variant_kw), keep_lm_head_fp16)


def map_linears(parts, fn, keep_lm_head_fp16):
    """A copy of `parts` whose linear layers (and lm_head unless kept) are fn(linear); the norms and
    the embedding are shared, the original modules untouched."""
    layers = []
    for layer in parts.layers:
        q = {p: fn(_get(layer, p)) for p in linear_names(layer)}
        layers.append(SimpleNamespace(input_layernorm=layer.input_layernorm,
                                      post_attention_layernorm=layer.post_attention_layernorm, _q=q))
    lm_head = parts.lm_head if keep_lm_head_fp16 else fn(parts.lm_head)
    return SimpleNamespace(embed_tokens=parts.embed_tokens, layers=layers, norm=parts.norm, lm_head=lm_head)


_WEIGHT_BIAS = {"u4b8": 8, "u8b128": 128}


def dequantized_parts(parts, variant_kw, keep_lm_head_fp16):
    """A copy of `parts` whose nn.Linear weights are what a 16-bit-activation variant's kernels
    multiply with: quantize_weights exactly as QuantLinear.from_linear does, then w = RN_T((q - bias) s)
    (one rounding of an exact product; docs/semantics.md). The fp16 model "on the same weights" as
    the quantized one, so that the logits error against it is the kernels' own. None for W4A8
    variants, zero-point types and per-channel scales."""
    from mixgemm.torch import quantize_weights

    act, wt, gs = variant_kw.get("act_type", "f16"), variant_kw.get("weight_type", "u4b8"), variant_kw.get("group_size", 128)
    if act not in ("f16", "bf16") or wt not in _WEIGHT_BIAS or gs <= 0:
        return None
    dt = torch.float16 if act == "f16" else torch.bfloat16

    def dq(lin):
        w = lin.weight.detach()
        qw = quantize_weights(w.t(), method="rtn", weight_type=wt, group_size=gs, scale_type=act)
        wd = (qw.q.to(dt) - _WEIGHT_BIAS[wt]) * qw.group_scales.to(dt).repeat_interleave(gs, dim=0)  # [K, N]
        out = nn.Linear(lin.in_features, lin.out_features, bias=lin.bias is not None, device=w.device, dtype=dt)
        out.weight.copy_(wd.t())
        if lin.bias is not None:
            out.bias.copy_(lin.bias)
        return out

    return map_linears(parts, dq, keep_lm_head_fp16)


def module_bytes(mods) -> int:
    seen, total = set(), 0
    for m in mods:
        for t in list(m.parameters()) + list(m.buffers()):
            if t.data_ptr() not in seen:
                seen.add(t.data_ptr())
                total += t.numel() * t.element_size()
    return total


def weight_bytes(parts) -> int:
    mods = [parts.embed_tokens, parts.norm, parts.lm_head]
    for layer in parts.layers:
        mods += [layer.input_layernorm, layer.post_attention_layernorm]
        lin = layer._q if hasattr(layer, "_q") else {p: _get(layer, p) for p in linear_names(layer)}
        mods += list(lin.values())
    return module_bytes(mods)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class Harness:
    """Static-KV-cache Llama forward over a model's modules; decode steps are CUDA-graph safe
    (positions live in a device tensor, the cache is written with index_copy_)."""

    def __init__(self, parts, c, batch, max_len, device):
        self.c, self.B, self.L, self.device = c, batch, max_len, device
        self.layers = [Layer(l, getattr(l, "_q", None)) for l in parts.layers]
        self.embed, self.norm, self.lm_head = parts.embed_tokens, parts.norm, parts.lm_head
        self.H, self.KV = c["heads"], c["kv_heads"]
        self.hd = c["hidden"] // c["heads"]
        shape = (len(self.layers), batch, self.KV, max_len, self.hd)
        self.k_cache = torch.zeros(shape, dtype=torch.float16, device=device)
        self.v_cache = torch.zeros(shape, dtype=torch.float16, device=device)
        inv = 1.0 / (c["theta"] ** (torch.arange(0, self.hd, 2, dtype=torch.float32, device=device) / self.hd))
        f = torch.outer(torch.arange(max_len, dtype=torch.float32, device=device), inv)
        emb = torch.cat((f, f), dim=-1)
        self.cos, self.sin = emb.cos(), emb.sin()  # [L, hd] f32
        self.ar = torch.arange(max_len, device=device)
        self.tok = torch.zeros(batch, 1, dtype=torch.long, device=device)
        self.pos = torch.zeros((), dtype=torch.long, device=device)
        self.trace = None  # a list: record (layer, tensor name, max |x|, finite) per op (syncs)
        self.bad_linear = None  # (layer, name, module, input) of the first non-finite linear output

    def _t(self, i, name, x):
        if self.trace is not None:
            self.trace.append((i, name, float(x.float().abs().max()), bool(torch.isfinite(x).all())))
        return x

    def _lin(self, i, name, mod, x):
        y = mod(x)
        if self.trace is not None:
            self._t(i, name, y)
            if self.bad_linear is None and not self.trace[-1][3]:
                self.bad_linear = (i, name, mod, x.clone())
        return y

    def _rope(self, x, cos, sin):  # x [B, h, T, hd] f16; cos/sin [T, hd] f32
        xf = x.float()
        return (xf * cos + rotate_half(xf) * sin).to(x.dtype)

    def _attn_mlp(self, i, ly, x, positions, mask, T, prefill):
        B = x.shape[0]
        h = ly.ln1(x)
        if ly.qkv is not None:
            q, k, v = self._lin(i, "qkv", ly.qkv, h).split([self.H * self.hd, self.KV * self.hd, self.KV * self.hd], dim=-1)
        else:
            q, k, v = ly.q(h), ly.k(h), ly.v(h)
        q = q.reshape(B, T, self.H, self.hd).transpose(1, 2)
        k = k.reshape(B, T, self.KV, self.hd).transpose(1, 2)
        v = v.reshape(B, T, self.KV, self.hd).transpose(1, 2)
        cos, sin = self.cos.index_select(0, positions), self.sin.index_select(0, positions)
        q, k = self._rope(q, cos, sin), self._rope(k, cos, sin)
        self.k_cache[i].index_copy_(2, positions, k)
        self.v_cache[i].index_copy_(2, positions, v)
        if prefill:
            kk, vv = k, v
            if self.KV != self.H:
                kk = kk.repeat_interleave(self.H // self.KV, dim=1)
                vv = vv.repeat_interleave(self.H // self.KV, dim=1)
            a = F.scaled_dot_product_attention(q, kk, vv, is_causal=True)
        else:
            kk, vv = self.k_cache[i], self.v_cache[i]
            gqa = self.KV != self.H and ATTN == "gqa"
            if self.KV != self.H and not gqa:
                kk = kk.repeat_interleave(self.H // self.KV, dim=1)
                vv = vv.repeat_interleave(self.H // self.KV, dim=1)
            a = F.scaled_dot_product_attention(q, kk, vv, attn_mask=mask, enable_gqa=gqa)
        a = a.transpose(1, 2).reshape(B, T, self.H * self.hd)
        x = x + self._lin(i, "o", ly.o, self._t(i, "attn", a))
        h = ly.ln2(x)
        if ly.gate_up is not None:
            g, u = self._lin(i, "gate_up", ly.gate_up, h).chunk(2, dim=-1)
        else:
            g, u = ly.gate(h), ly.up(h)
        x = x + self._lin(i, "down", ly.down, self._t(i, "silu_mul", F.silu(g) * u))
        return self._t(i, "x", x)

    def forward(self, tokens, positions, prefill):
        x = self.embed(tokens)
        T = tokens.shape[1]
        mask = None if prefill else (self.ar <= positions[-1]).view(1, 1, 1, self.L)
        for i, ly in enumerate(self.layers):
            x = self._attn_mlp(i, ly, x, positions, mask, T, prefill)
        return self.lm_head(self.norm(x))

    def prefill(self, prompt):  # [B, T] -> logits [B, T, V]
        T = prompt.shape[1]
        return self.forward(prompt, torch.arange(T, device=self.device), prefill=True)

    def step(self):  # one greedy decode step on the static buffers
        logits = self.forward(self.tok, self.pos.view(1), prefill=False)[:, -1]
        self.tok.copy_(logits.argmax(-1, keepdim=True))
        self.pos.add_(1)


def profile_step(step, steps=3):
    """Per-kernel GPU time of `steps` eager decode steps (torch.profiler, CUPTI): returns
    {category: (kernels per step, us per step)} and the 12 kernels with the most time. Eager,
    because a graph replay runs the same kernels: only the launch gaps differ, and those are
    the graph step time minus the kernel sum."""
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    cats, per_name = {}, {}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        us = e.device_time if hasattr(e, "device_time") else e.cuda_time
        cat = kernel_category(e.name)
        n, t = cats.get(cat, (0, 0.0))
        cats[cat] = (n + 1, t + us)
        k, t2 = per_name.get(e.name, (0, 0.0))
        per_name[e.name] = (k + 1, t2 + us)
    cats = {k: (n / steps, t / steps) for k, (n, t) in cats.items()}
    top = sorted(((t / steps, n / steps, name) for name, (n, t) in per_name.items()), reverse=True)[:12]
    return cats, top


def run_variant(parts, c, batch, prompt, new_tokens, device, mode, extra_resident, profile=False):
    """Prefill + timed greedy decode. Returns (tokens_per_s, peak_gb, prefill_logits, ms per
    step, profile or None)."""
    torch.cuda.synchronize()
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(device)
    T = prompt.shape[1]
    hs = Harness(parts, c, batch, T + new_tokens + 8, device)
    logits = hs.prefill(prompt)
    first = logits[:, -1].argmax(-1, keepdim=True)

    def reset():
        hs.tok.copy_(first)
        hs.pos.fill_(T)

    # graph: the eager step captured in one CUDA graph. compile: the step compiled by inductor
    # (fused elementwise / norm / rope kernels; inductor's own CUDA graphs are off, since they
    # skip a step that writes the KV cache and token buffers in place) and captured in the
    # same kind of graph. Both warm up on a side stream first (compilation happens there).
    step = hs.step
    if mode == "compile":
        step = torch.compile(hs.step, fullgraph=True, dynamic=False)
    if mode in ("graph", "compile"):
        reset()
        side = torch.cuda.Stream(device)
        side.wait_stream(torch.cuda.current_stream(device))
        with torch.cuda.stream(side):
            for _ in range(3):
                step()
        torch.cuda.current_stream(device).wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            step()
        run = graph.replay
    else:
        run = step
    reset()
    for _ in range(3):
        run()
    reset()
    torch.cuda.synchronize()
    t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0.record()
    for _ in range(new_tokens):
        run()
    t1.record()
    torch.cuda.synchronize()
    secs = t0.elapsed_time(t1) / 1e3
    peak = (torch.cuda.max_memory_allocated(device) - extra_resident) / GB
    prof = profile_step(step) if profile else None
    del hs
    if mode in ("graph", "compile"):
        del graph
    return batch * new_tokens / secs, peak, logits, secs / new_tokens * 1e3, prof


def trace_nonfinite(parts, c, batch, prompt, device, what):
    """Prints where a prefill first goes non-finite: the first op (layer, name) whose output is
    not finite, and the largest |x| of every op before it (f16 overflows at 65504)."""
    hs = Harness(parts, c, batch, prompt.shape[1] + 8, device)
    hs.trace = []
    hs.prefill(prompt)
    bad = next((j for j, t in enumerate(hs.trace) if not t[3]), None)
    if bad is None:
        print(f"[e2e] {what}: non-finite logits, every layer output finite (lm_head or norm)")
        return
    i, name = hs.trace[bad][0], hs.trace[bad][1]
    peak = max(hs.trace[:bad], key=lambda t: t[2]) if bad else None
    print(f"[e2e] {what}: first non-finite output: layer {i} {name}; before it the largest |x| was "
          f"{peak[2]:.4g} (layer {peak[0]} {peak[1]})" if peak else f"[e2e] {what}: layer {i} {name}")
    for t in hs.trace[max(0, bad - 8):bad + 1]:
        print(f"[e2e]   layer {t[0]:2d} {t[1]:8s} max|x| {t[2]:.4g} finite {t[3]}")
    if hs.bad_linear is not None and hasattr(hs.bad_linear[2], "schedule"):
        diagnose_linear(hs.bad_linear[2], hs.bad_linear[3], what)


def diagnose_linear(mod, x, what):
    """A QuantLinear whose output is not finite on a finite input: its quantized activations,
    and the output of the same call under every schedule (a kernel defect shows as some
    schedules finite and some not; bad data as all of them)."""
    import mixgemm
    x2 = x.reshape(-1, mod.in_features).to(mod.dtype)
    print(f"[e2e] {what}: diagnosing {mod.extra_repr()} on M={x2.shape[0]}, input finite "
          f"{bool(torch.isfinite(x2).all())}, max|x| {float(x2.float().abs().max()):.4g}")
    if mod.act_type in ("s8", "e4m3"):
        q, tok = torch.ops.mixgemm.quantize_activations(x2, mod.act_type, None)
        codes = q.view(torch.uint8)
        nan_codes = int(((codes & 0x7F) == 0x7F).sum()) if mod.act_type == "e4m3" else 0
        print(f"[e2e]   quantized activations: {nan_codes} NaN codes, token scales finite "
              f"{bool(torch.isfinite(tok).all())} in [{float(tok.min()):.4g}, {float(tok.max()):.4g}]")
    for name in ("weight scales", "channel scales"):
        t = mod.scales if name == "weight scales" else mod.channel_scales
        if t is not None and t.is_floating_point():
            print(f"[e2e]   {name}: finite {bool(torch.isfinite(t).all())}, max {float(t.float().abs().max()):.4g}")
    keep = mod.schedule
    scheds = [""] + mixgemm.supported_schedules(mod.act_type, mod.weight_type, mod.scale_type, mod.has_zeros,
                                                mod.out_type)
    ref = None
    for sname in scheds:
        mod.schedule = sname
        try:
            y = mod(x2)
        except Exception as e:  # noqa: BLE001  (a schedule may refuse the shape)
            print(f"[e2e]   {sname or 'heuristic':34s} refused: {str(e)[:80]}")
            continue
        bad = ~torch.isfinite(y)
        rows = torch.nonzero(bad.any(1)).flatten().tolist()
        cols = torch.nonzero(bad.any(0)).flatten()
        if ref is None and not bool(bad.any()):
            ref = y
        diff = float((y.float() - ref.float()).abs().max()) if ref is not None and not bool(bad.any()) else float("nan")
        print(f"[e2e]   {sname or 'heuristic':34s} non-finite {int(bad.sum())} (rows {rows[:8]}, cols "
              f"{cols[:6].tolist()}..{cols[-1:].tolist()}), max |y - first finite| {diff:.4g}")
    mod.schedule = keep


def rel_err(x, ref):
    x, ref = x.float(), ref.float()
    return float((x - ref).norm() / ref.norm())


def linear_rel_err(parts, vparts, c, device) -> float:
    """Largest relative error of layer 0's quantized linears against their fp16 originals on
    one random input: what the quantization costs one layer (the kernels themselves are
    checked against the CPU reference in tests/). Separates that from the logits error,
    which a random-weight model amplifies layer after layer."""
    g = torch.Generator(device="cpu").manual_seed(1)
    worst = 0.0
    for p in linear_names(parts.layers[0]):
        ref_lin, q_lin = _get(parts.layers[0], p), vparts.layers[0]._q[p]
        x = torch.randn(8, ref_lin.in_features, generator=g).to(device=device, dtype=torch.float16)
        worst = max(worst, rel_err(q_lin(x), ref_lin(x)))
    return worst


def write_profile(path, model, batch, variant, ms_step, prof):
    """Appends one decode step's GPU time per kernel category (and the top kernels) to path."""
    cats, top = prof
    new = not os.path.exists(path)
    with open(path, "a", newline="") as fh:
        w = csv.writer(fh)
        if new:
            w.writerow(["model", "batch", "variant", "what", "name", "kernels_per_step", "us_per_step",
                        "timed_step_us"])
        for cat, (n, us) in sorted(cats.items()):
            w.writerow([model, batch, variant, "category", cat, f"{n:.1f}", f"{us:.1f}", f"{ms_step * 1e3:.1f}"])
        busy = sum(us for _, us in cats.values())
        w.writerow([model, batch, variant, "category", "idle (timed step - kernel sum)", "",
                    f"{ms_step * 1e3 - busy:.1f}", f"{ms_step * 1e3:.1f}"])
        for us, n, name in top:
            w.writerow([model, batch, variant, "kernel", name[:160], f"{n:.1f}", f"{us:.1f}", ""])
    print(f"[e2e]   {model} {variant} batch {batch}: " + ", ".join(
        f"{cat} {us:.0f} us ({n:.0f} kernels)" for cat, (n, us) in sorted(cats.items())) +
          f"; timed step {ms_step * 1e3:.0f} us")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="llama3-8b,llama2-7b", help=f"comma list of {', '.join(MODELS)}")
    ap.add_argument("--layers", type=int, default=0, help="decoder layers (0: the real model's 32)")
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--prompt-len", type=int, default=16)
    ap.add_argument("--new-tokens", type=int, default=64)
    ap.add_argument("--mode", choices=("graph", "compile", "eager"), default="graph",
                    help="how a decode step runs: one CUDA graph replay of the eager step (default), "
                         "of the step compiled by torch.compile (inductor fusions), or eager")
    ap.add_argument("--keep-lm-head-fp16", action="store_true", help="leave lm_head unquantized")
    ap.add_argument("--no-fuse", action="store_true", help="run q/k/v and gate/up as separate GEMMs (default: "
                    "one fused GEMM each, as inference engines do; applies to every variant)")
    ap.add_argument("--no-transformers", action="store_true", help="use the plain-torch model even if "
                    "transformers is installed")
    ap.add_argument("--out", default="e2e.csv")
    ap.add_argument("--profile-out", default="", help="also write where each decode step's GPU time goes "
                    "(per kernel category, torch.profiler over eager steps) to this CSV")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--attn", choices=("gqa", "expand"), default="gqa",
                    help="decode attention over the grouped KV cache: SDPA's enable_gqa on the cache as stored "
                         "(default), or expand the KV heads to the query heads first (the harness before session 50)")
    args = ap.parse_args(argv)
    global ATTN
    ATTN = args.attn

    if not torch.cuda.is_available():
        print("[e2e] no CUDA GPU: this benchmark needs one")
        return 2
    import mixgemm.torch  # noqa: F401  (registers the ops)

    device = torch.device("cuda", torch.cuda.current_device())
    batches = [int(b) for b in args.batches.split(",")]
    variants = [v for v in args.variants.split(",") if v]
    rows: List[Dict] = []
    fields = ["model", "batch", "variant", "tokens_per_s", "peak_mem_gb", "weight_gb", "logits_rel_err", "logits_rel_err_dq", "linear_rel_err",
              "speedup_vs_fp16", "ms_per_step", "layers", "prompt_len", "new_tokens", "mode", "built_with",
              "lm_head", "fused", "attn", "gpu"]
    gpu = torch.cuda.get_device_name(device)
    torch.manual_seed(args.seed)
    with open(args.out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for name in args.models.split(","):
            c = dict(MODELS[name])
            if args.layers:
                c["layers"] = args.layers
            label = name if c["layers"] == MODELS[name]["layers"] else f"{name}-{c['layers']}L"
            t_build = time.time()
            with torch.inference_mode():
                parts, hf, built_with = build_model(c, device, not args.no_transformers)
                if not args.no_fuse:
                    fuse_projections(parts)
            torch.cuda.synchronize()
            print(f"[e2e] {label}: built with {built_with} in {time.time() - t_build:.1f} s, "
                  f"{weight_bytes(parts) / GB:.2f} GB of fp16 weights")
            g = torch.Generator(device="cpu").manual_seed(args.seed)
            prompts = {b: torch.randint(0, c["vocab"], (b, args.prompt_len), generator=g).to(device) for b in batches}
            fp16_bytes = weight_bytes(parts)
            fp16_linear_bytes = module_bytes([parts.lm_head] + [_get(l, p) for l in parts.layers for p in linear_names(l)])
            ref_logits, fp16_tps = {}, {}
            with torch.inference_mode():
                if hf is not None:
                    try:
                        b0 = batches[0]
                        hf_logits = hf(input_ids=prompts[b0], use_cache=False).logits
                        hs = Harness(parts, c, b0, args.prompt_len + 8, device)
                        print(f"[e2e] {label}: harness vs transformers forward, fp16 prefill logits rel. error "
                              f"{rel_err(hs.prefill(prompts[b0]), hf_logits):.2e}")
                        del hs, hf_logits
                    except Exception as e:  # noqa: BLE001
                        print(f"[e2e] {label}: could not compare with the transformers forward: {e}")
                for vname in variants:
                    kw = VARIANTS[vname]
                    t_q = time.time()
                    if kw is None:
                        vparts, extra, wbytes = parts, 0, fp16_bytes
                    else:
                        vparts = quantized_parts(parts, kw, args.keep_lm_head_fp16)
                        torch.cuda.synchronize()
                        extra = fp16_linear_bytes - (module_bytes([parts.lm_head]) if args.keep_lm_head_fp16 else 0)
                        wbytes = weight_bytes(vparts)
                        print(f"[e2e] {label} {vname}: quantized + prepacked in {time.time() - t_q:.1f} s, "
                              f"{wbytes / GB:.2f} GB of weights")
                    lin_err = linear_rel_err(parts, vparts, c, device) if kw is not None else 0.0
                    dq_logits = {}
                    dq_parts = dequantized_parts(parts, kw, args.keep_lm_head_fp16) if kw is not None else None
                    if dq_parts is not None:
                        for b in batches:
                            dq_logits[b] = Harness(dq_parts, c, b, prompts[b].shape[1] + 8,
                                                   device).prefill(prompts[b]).half()
                        del dq_parts
                        gc.collect()
                        torch.cuda.empty_cache()
                    if kw is not None:
                        print(f"[e2e] {label} {vname}: layer-0 linears vs fp16 on the same input, "
                              f"max rel. error {lin_err:.4f} (4-bit quantization error; the logits "
                              f"error below is it after {c['layers']} layers of a random-weight model)")
                    for b in batches:
                        tps, peak, logits, ms, prof = run_variant(vparts, c, b, prompts[b], args.new_tokens,
                                                                  device, args.mode, extra,
                                                                  profile=bool(args.profile_out))
                        if prof is not None:
                            write_profile(args.profile_out, label, b, vname, ms, prof)
                        if kw is None:
                            ref_logits[b] = logits.half()
                            fp16_tps[b] = tps
                            err = 0.0
                        else:
                            if b not in ref_logits:  # fp16 not among this run's variants: its prefill alone
                                ref_logits[b] = Harness(parts, c, b, prompts[b].shape[1] + args.new_tokens + 8,
                                                        device).prefill(prompts[b]).half()
                            err = rel_err(logits, ref_logits[b])
                        if not bool(torch.isfinite(logits).all()):
                            trace_nonfinite(vparts, c, b, prompts[b], device, f"{label} {vname} batch {b}")
                        row = dict(model=label, batch=b, variant=vname, tokens_per_s=f"{tps:.1f}",
                                   peak_mem_gb=f"{peak:.2f}", weight_gb=f"{wbytes / GB:.3f}",
                                   logits_rel_err=f"{err:.4f}",
                                   logits_rel_err_dq=f"{rel_err(logits, dq_logits[b]):.2e}" if b in dq_logits else "",
                                   linear_rel_err=f"{lin_err:.4f}",
                                   speedup_vs_fp16=f"{tps / fp16_tps[b]:.2f}" if b in fp16_tps else "",
                                   ms_per_step=f"{ms:.3f}", layers=c["layers"], prompt_len=args.prompt_len,
                                   new_tokens=args.new_tokens, mode=args.mode, built_with=built_with,
                                   lm_head="fp16" if (kw is None or args.keep_lm_head_fp16) else "quantized",
                                   fused="no" if args.no_fuse else "qkv,gate_up", attn=args.attn,
                                   gpu=gpu)
                        rows.append(row)
                        w.writerow(row)
                        fh.flush()
                        print(f"[e2e] {label:12s} {vname:10s} batch {b:3d}: {tps:9.1f} tok/s "
                              f"({ms:.3f} ms/step, x{row['speedup_vs_fp16'] or '-'} vs fp16), peak {peak:.2f} GB, "
                              f"logits rel err {err:.4f}"
                              + (f" (against the fp16 model on the dequantized weights: {row['logits_rel_err_dq']})"
                                 if row['logits_rel_err_dq'] else ""))
                        del logits
                    if kw is not None:
                        del vparts
                        gc.collect()
                        torch.cuda.empty_cache()
            del parts, hf, ref_logits
            gc.collect()
            torch.cuda.empty_cache()
    print(f"[e2e] wrote {len(rows)} rows to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
