"""GPU tests of the Python package (PyTorch on a CUDA GPU): ops against the CPU reference,
the DLPack path, torch.compile(fullgraph=True) and CUDA-graph capture, QuantLinear against
nn.Linear on the dequantized weights. Every test skips, with the reason, without PyTorch
or without a GPU."""
import gc
import weakref

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed: the GPU tests need it")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU visible to PyTorch: GPU tests skipped", allow_module_level=True)

import mixgemm as mg  # noqa: E402
import mixgemm.torch as mt  # noqa: E402

pytestmark = pytest.mark.gpu
DEV = torch.device("cuda")

# (act, weight_type, group_size, method, has_zeros) -> the W4A16/W8A16/W4A8 configurations
CONFIGS = [("f16", "u4b8", 128, "rtn"), ("bf16", "u4b8", 128, "rtn"), ("f16", "u4", 128, "rtn"),
           ("f16", "u8b128", 0, "rtn"), ("bf16", "u8", 64, "rtn"), ("s8", "u4b8", 128, "qqq"),
           ("s8", "u4b8", 0, "qqq"), ("e4m3", "u4b8", 128, "fp8")]


def rand_w(K, N, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(K, N, generator=g) * 0.02).float()


def ref_out(x16, qw, act, bias=None):
    """The CPU reference for 16-bit x through the same activation quantization."""
    xh = x16.float().cpu().numpy()
    if act in ("s8", "e4m3"):
        q, tok = mg.quantize_activations(xh, act)
        return mg.reference_gemm(q, qw, a_type=act, token_scales=tok, bias=bias), (q, tok)
    if act == "bf16":
        bits = x16.cpu().view(torch.int16).numpy().view(np.uint16)
        b = None if bias is None else bias.cpu().view(torch.int16).numpy().view(np.uint16)
        out = mg.reference_gemm(bits, qw, a_type="bf16", out_type="bf16", bias=b)
        return torch.from_numpy(out.view(np.int16)).view(torch.bfloat16).float().numpy(), None
    return mg.reference_gemm(x16.cpu().numpy(), qw, bias=bias), None


def close(got, ref, what, rel=4e-3):
    got = np.asarray(got, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    scale = np.abs(ref).max() + 1e-30
    err = np.abs(got - ref).max() / scale
    assert err <= rel, f"{what}: max |gpu - ref| / max |ref| = {err:.3g} > {rel}"


@pytest.mark.parametrize("act,wt,g,method", CONFIGS)
@pytest.mark.parametrize("M", [1, 16, 100])
def test_quantlinear_vs_cpu_reference(act, wt, g, method, M):
    K, N = 512, 256
    w = rand_w(K, N)
    st = act if act in ("f16", "bf16") else "f16"
    qw = mg.quantize_weights(w.numpy(), method, wt, g, st)
    layer = mt.QuantLinear.from_quantized(qw, act_type=act, device=DEV)
    dt = torch.bfloat16 if act == "bf16" else torch.float16
    x = torch.randn(M, K, generator=torch.Generator().manual_seed(M)).to(dt).to(DEV)
    y = layer(x)
    torch.cuda.synchronize()
    ref, aq = ref_out(x, qw, act)
    if act == "s8":
        # s32 accumulation: bit-exact with the reference
        assert np.array_equal(y.cpu().numpy(), ref), "s8 path not bit-exact"
    else:
        # one output rounding apart at most: 2^-10 (f16) / 2^-7 (bf16) of the largest output
        close(y.float().cpu().numpy(), ref, f"{act}/{wt}/g{g}/M{M}", rel=1e-2 if act == "bf16" else 4e-3)


@pytest.mark.parametrize("act", ["s8", "e4m3"])
def test_activation_quant_op_bit_exact(act):
    x = torch.randn(37, 1024, generator=torch.Generator().manual_seed(1)).half().to(DEV)
    q, tok = mt.quantize_activations(x, act)
    rq, rtok = mg.quantize_activations(x.float().cpu().numpy(), act)
    assert np.array_equal(q.cpu().view(torch.uint8).numpy(), rq.view(np.uint8))
    assert np.array_equal(tok.cpu().numpy(), rtok)


def test_quantlinear_vs_nn_linear_on_dequantized_weights():
    torch.manual_seed(0)
    K, N = 1024, 512
    lin = torch.nn.Linear(K, N, bias=True).half().to(DEV)
    layer = mt.QuantLinear.from_linear(lin, weight_type="u4b8", group_size=128, act_type="f16")
    qw = mt.quantize_weights(lin.weight.detach().t(), "rtn", "u4b8", 128).numpy()
    deq = torch.from_numpy(mg.dequantize_weights(qw, "f16")).float().to(DEV)  # [K, N]
    ref_lin = torch.nn.Linear(K, N).to(DEV)
    with torch.no_grad():
        ref_lin.weight.copy_(deq.t())
        ref_lin.bias.copy_(lin.bias.float())
    with torch.no_grad():  # the reference layers' parameters require grad
        for M in (1, 8, 64):
            x = torch.randn(M, K, device=DEV).half()
            close(layer(x).float().cpu(), ref_lin(x.float()).cpu(), f"QuantLinear vs nn.Linear M={M}")
        # and quantization error against the original layer is that of 4-bit RTN
        x = torch.randn(16, K, device=DEV).half()
        rel = (layer(x).float() - lin(x).float()).norm() / lin(x).float().norm()
    assert rel < 0.2


def test_gpu_quantizers_match_cpu():
    from test_torch_cpu import check_quantizers
    check_quantizers("cuda")


def test_gpu_prepack_matches_cpu_and_dlpack_gemm_matches_op():
    K, N, M = 512, 256, 8
    qw = mg.quantize_weights(rand_w(K, N).numpy(), "rtn", "u4b8", 128)
    q_dev = torch.from_numpy(qw.q).to(DEV)
    b_dev = mg.prepack(q_dev)  # DLPack path, torch's current stream
    assert isinstance(b_dev, torch.Tensor) and b_dev.is_cuda
    assert np.array_equal(b_dev.cpu().numpy(), mg.prepack(qw.q))
    s = torch.from_numpy(qw.group_scales).to(DEV)
    x = torch.randn(M, K, device=DEV).half()
    y1 = mg.gemm(x, b_dev, N, group_scales=s, group_size=128)
    y2 = mt.gemm(x, b_dev, N, group_scales=s, group_size=128)
    torch.cuda.synchronize()
    assert torch.equal(y1, y2)
    # No tokens: empty results, as the torch ops give (the problem is still checked).
    assert mg.gemm(x[:0], b_dev, N, group_scales=s, group_size=128).shape == (0, N)
    q0, t0 = mg.quantize_activations(x[:0], "s8")
    assert q0.shape == (0, K) and t0.shape == (0,)
    with pytest.raises(mg.InvalidArgumentError):
        mg.gemm(x[:0], b_dev, N, group_scales=s, group_size=96)
    for sched in mg.supported_schedules("f16", "u4b8")[:3]:
        y3 = mg.gemm(x, b_dev, N, group_scales=s, group_size=128, schedule=sched)
        close(y3.float().cpu(), y1.float().cpu(), f"schedule {sched}")


def test_errors_arrive_with_the_library_message():
    K, N = 512, 256
    b = torch.zeros(mg.prepacked_size(K, N), dtype=torch.uint8, device=DEV)
    x = torch.randn(4, K, device=DEV).half()
    s = torch.ones(K // 128, N, dtype=torch.float16, device=DEV)
    # The wrapper sizes the workspace first, so workspace_size is the entry that refuses it.
    with pytest.raises(mg.InvalidArgumentError, match=r"^mixgemm::(gemm|workspace_size): .*group_size=48"):
        mt.gemm(x, b, N, group_scales=s, group_size=48)
    with pytest.raises(mg.InvalidArgumentError, match="schedule='no_such_schedule' is not a schedule"):
        mt.gemm(x, b, N, group_scales=s, group_size=128, schedule="no_such_schedule")
    # The op passes bare pointers: scales of another element size are refused, not misread.
    with pytest.raises(mg.InvalidArgumentError, match="group_scales is torch.float32 but is read as f16"):
        mt.gemm(x, b, N, group_scales=s.float(), group_size=128)
    with pytest.raises(mg.InvalidArgumentError, match="group_scales is torch.bfloat16 but is read as f16"):
        mt.gemm(x, b, N, group_scales=s.to(torch.bfloat16), group_size=128)
    with pytest.raises(mg.InvalidArgumentError, match="static_scale has 2-byte elements"):
        mt.quantize_activations(x, "s8", torch.ones(1, dtype=torch.float16, device=DEV))


@pytest.mark.parametrize("act", ["f16", "s8", "e4m3"])
def test_torch_compile_fullgraph_and_cuda_graph(act):
    torch.manual_seed(1)
    K, N = 1024, 512
    lin = torch.nn.Linear(K, N).half().to(DEV)
    layer = mt.QuantLinear.from_linear(lin, act_type=act)
    mlp = torch.nn.Sequential(layer, torch.nn.SiLU())
    x = torch.randn(8, K, device=DEV).half()
    eager = mlp(x)
    compiled = torch.compile(mlp, fullgraph=True)
    close(compiled(x).float().cpu(), eager.float().cpu(), "torch.compile", rel=2e-3)
    # CUDA graph: capture, then replay on new input data
    static_x = x.clone()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        mlp(static_x)  # warm-up on the side stream
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_y = mlp(static_x)
    x2 = torch.randn(8, K, device=DEV).half()
    static_x.copy_(x2)
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(static_y, mlp(x2))


def test_runs_on_the_callers_stream():
    K, N = 1024, 512
    layer = mt.QuantLinear.from_linear(torch.nn.Linear(K, N).half().to(DEV))
    x = torch.randn(16, K, device=DEV).half()
    ref = layer(x)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = layer(x)
    s.synchronize()
    assert torch.equal(y, ref)


def test_concurrent_streams_take_turns_on_the_workspace():
    # Decode calls with split-K (their partials and counters live in the device's one workspace)
    # issued on two streams with no user synchronization between them: the ops order the streams
    # on the workspace, so every result is the single-stream one, bit for bit. (K = 8192: the
    # workspace split; at K <= 4096 the decode launch may reduce through a cluster instead.)
    K, N = 8192, 8192
    torch.manual_seed(5)
    layers = [mt.QuantLinear.from_linear(torch.nn.Linear(K, N).half().to(DEV)) for _ in range(2)]
    xs = [torch.randn(1, K, device=DEV).half() for _ in range(2)]
    run_on_two_streams(lambda i: layers[i](xs[i]))


def run_on_two_streams(call):
    """call(0) and call(1) once on the current stream (the references), then 20 times each on
    two streams, interleaved, with no synchronization between them: every result must be its
    reference, bit for bit. Returns the two streams."""
    refs = [call(i) for i in range(2)]
    torch.cuda.synchronize()
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    outs = [[], []]
    for _ in range(20):
        for i in range(2):
            with torch.cuda.stream(streams[i]):
                outs[i].append(call(i))
    torch.cuda.synchronize()
    for i in range(2):
        for y in outs[i]:
            assert torch.equal(y, refs[i])
    return streams


def test_fork_join_capture_orders_the_workspace():
    # A CUDA graph captured on two streams (fork / join, as engines capture a side stream for shared
    # experts or a second micro-batch): the QuantLinears of the two branches share the device's
    # workspace, so the ops put an edge between them in the graph. Until session 75 nothing was
    # ordered during capture and the two split-K decode calls ran at once at every replay.
    K, N = 8192, 8192
    torch.manual_seed(6)
    layers = [mt.QuantLinear.from_linear(torch.nn.Linear(K, N).half().to(DEV)) for _ in range(2)]
    xs = [torch.randn(1, K, device=DEV).half() for _ in range(2)]
    with torch.no_grad():
        refs = [layers[i](xs[i]) for i in range(2)]
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        side = torch.cuda.Stream()
        with torch.cuda.graph(g):
            side.wait_stream(torch.cuda.current_stream())  # fork
            y0 = layers[0](xs[0])
            with torch.cuda.stream(side):
                y1 = layers[1](xs[1])
            torch.cuda.current_stream().wait_stream(side)  # join
    for _ in range(20):
        y0.fill_(float("nan"))
        y1.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        assert torch.equal(y0, refs[0]) and torch.equal(y1, refs[1])


def test_graph_replays_after_the_workspace_grew():
    # A decode graph captured with the device's workspace, which then grows (as a larger call's first
    # run makes it): the graph keeps the old address, so the old workspace must stay allocated. The
    # memory the allocator hands out next is filled with 0xFF (non-zero split-K counters if it reused
    # the old workspace's), and the replays must still give the eager results.
    K, N = 8192, 8192
    torch.manual_seed(7)
    layer = mt.QuantLinear.from_linear(torch.nn.Linear(K, N).half().to(DEV))
    x = torch.randn(1, K, device=DEV).half()
    with torch.no_grad():
        ref = layer(x)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            y = layer(x)
        before = mt.workspace(DEV)
        old_bytes = before.numel()
        kept = weakref.ref(before)
        mt.reserve_workspace(DEV, old_bytes + 1)  # what a larger call's first run does
        assert mt.workspace(DEV) is not before
        del before
        gc.collect()
        # The module must hold the captured workspace (session 75's device run: without this the
        # replays below still passed, the allocator not having handed the freed block out again).
        assert kept() is not None, "the workspace the graph captured was freed"
        fill = [torch.full((old_bytes,), 255, dtype=torch.uint8, device=DEV) for _ in range(4)]
        for _ in range(10):
            y.fill_(float("nan"))
            g.replay()
            torch.cuda.synchronize()
            assert torch.equal(y, ref)
    del fill


def test_dlpack_gemm_on_concurrent_streams():
    # The DLPack mg.gemm without workspace=: each stream gets a workspace of its own (zero-filled on
    # that stream), so split-K decode calls issued on two streams with no synchronization between
    # them give the single-stream bits; stream= naming a non-current stream runs there too.
    K, N = 8192, 8192
    qw = mg.quantize_weights(rand_w(K, N).numpy(), "rtn", "u4b8", 128)
    b = mg.prepack(torch.from_numpy(qw.q).to(DEV))
    sc = torch.from_numpy(qw.group_scales).to(DEV)
    xs = [torch.randn(1, K, device=DEV).half() for _ in range(2)]
    streams = run_on_two_streams(lambda i: mg.gemm(xs[i], b, N, group_scales=sc, group_size=128))
    ref = mg.gemm(xs[0], b, N, group_scales=sc, group_size=128)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    y_side = mg.gemm(xs[0], b, N, group_scales=sc, group_size=128, stream=side.cuda_stream)
    torch.cuda.synchronize()
    assert torch.equal(y_side, ref)
    keys = {k[2] for k in mg._workspaces if k[0] == "torch"}
    assert {s.cuda_stream for s in streams} | {side.cuda_stream} <= keys


def test_dlpack_gemm_planned_for_fewer_sms():
    # sm_count: the call planned for fewer SMs than the device has (a green context's) gives the
    # whole-device plan's sums within rounding, the same bits run after run, and grows the module's
    # workspace to what that plan needs; a count above the device's is refused by name.
    K, N = 4096, 4096
    qw = mg.quantize_weights(rand_w(K, N, seed=3).numpy(), "rtn", "u4b8", 128)
    b = mg.prepack(torch.from_numpy(qw.q).to(DEV))
    sc = torch.from_numpy(qw.group_scales).to(DEV)
    for M in (1, 8, 300):
        x = torch.randn(M, K, device=DEV).half()
        ref = mg.gemm(x, b, N, group_scales=sc, group_size=128)
        for n in (8, 66):
            y = mg.gemm(x, b, N, group_scales=sc, group_size=128, sm_count=n)
            y2 = mg.gemm(x, b, N, group_scales=sc, group_size=128, sm_count=n)
            torch.cuda.synchronize()
            assert torch.equal(y, y2), f"M={M} sm_count={n}: a second run differs"
            close(y.float().cpu(), ref.float().cpu(), f"M={M} sm_count={n}")
    with pytest.raises(mg.InvalidArgumentError, match="sm_count=100000"):
        mg.gemm(x, b, N, group_scales=sc, group_size=128, sm_count=100000)


def test_torch_ops_take_sm_count():
    # mixgemm.torch's ops and QuantLinear plan for sm_count SMs as mixgemm.gemm does: the same bits
    # as the DLPack call with the same count (eager, through the dispatcher, compiled), the workspace
    # grown for that plan, the op's schema checked, and a count above the device's refused by name.
    K, N = 4096, 2048
    lin = torch.nn.Linear(K, N, bias=False).half().to(DEV)
    for n in (8, 66):
        layer = mt.QuantLinear.from_linear(lin, sm_count=n)
        assert layer.sm_count == n
        for M in (1, 8, 300):
            x = torch.randn(M, K, device=DEV).half()
            want = mg.gemm(x, layer.qweight, N, group_scales=layer.scales, group_size=128, sm_count=n)
            got = mt.gemm(x, layer.qweight, N, group_scales=layer.scales, group_size=128, sm_count=n)
            args = (x, layer.qweight, layer.scales, None, None, None, None, N, "u4b8", "f16", False, 128, "f16", "",
                    False, n)
            op = torch.ops.mixgemm.gemm(*args)
            torch.cuda.synchronize()
            assert torch.equal(got, want), f"M={M} sm_count={n}: mixgemm.torch.gemm differs from mixgemm.gemm"
            assert torch.equal(op, want), f"M={M} sm_count={n}: the dispatched op differs from mixgemm.gemm"
            assert torch.equal(layer(x), want), f"M={M} sm_count={n}: QuantLinear differs from mixgemm.gemm"
        torch.library.opcheck(torch.ops.mixgemm.gemm.default, args, test_utils=("test_schema", "test_faketensor"))
        x = torch.randn(4, K, device=DEV).half()
        compiled = torch.compile(layer, fullgraph=True)
        assert torch.equal(compiled(x), layer(x)), f"sm_count={n}: compiled QuantLinear differs"
        ws = mt.workspace(DEV)
        need = mg.workspace_size(300, N, K, "f16", "u4b8", "f16", False, "f16", 128, sm_count=n)
        assert ws is not None and ws.numel() >= need
    with pytest.raises(mg.InvalidArgumentError, match="sm_count=100000"):
        mt.gemm(x, layer.qweight, N, group_scales=layer.scales, group_size=128, sm_count=100000)


def test_opcheck():
    K, N = 512, 256
    layer = mt.QuantLinear.from_linear(torch.nn.Linear(K, N).half().to(DEV))
    x = torch.randn(4, K, device=DEV).half()
    args = (x, layer.qweight, layer.scales, None, None, None, layer.bias, N, "u4b8", "f16", False, 128, "f16", "")
    torch.library.opcheck(torch.ops.mixgemm.gemm.default, args,
                          test_utils=("test_schema", "test_faketensor"))


def test_gptq_awq_loaders_on_gpu():
    rng = np.random.default_rng(5)
    K, N, G = 512, 256, 4
    q = rng.integers(0, 16, size=(K, N), dtype=np.uint8)
    z = rng.integers(1, 16, size=(G, N), dtype=np.uint8)
    s = (rng.random((G, N)) * 0.01 + 0.001).astype(np.float16)
    x = torch.randn(5, K, device=DEV).half()
    gl = mt.QuantLinear.from_gptq(torch.from_numpy(mg._C.gptq_pack_qweight(q)),
                                  torch.from_numpy(mg._C.gptq_pack_qzeros(z)), torch.from_numpy(s))
    al = mt.QuantLinear.from_awq(torch.from_numpy(mg._C.awq_pack_qweight(q)),
                                 torch.from_numpy(mg._C.awq_pack_qzeros(z)), torch.from_numpy(s))
    qw = mg.QuantizedWeight(q=q, type="u4", group_size=K // G, scale_type="f16", group_scales=s, zeros=z)
    ref = mg.reference_gemm(x.cpu().numpy(), qw)
    close(gl(x).float().cpu(), ref, "gptq")
    close(al(x).float().cpu(), ref, "awq")


def test_cupy_dlpack_path():
    cp = pytest.importorskip("cupy", reason="CuPy is not installed")
    K, N, M = 512, 256, 4
    qw = mg.quantize_weights(rand_w(K, N).numpy(), "rtn", "u4b8", 128)
    b = mg.prepack(cp.asarray(qw.q))
    x = cp.asarray(np.random.default_rng(0).standard_normal((M, K)).astype(np.float16))
    y = mg.gemm(x, b, N, group_scales=cp.asarray(qw.group_scales), group_size=128)
    cp.cuda.get_current_stream().synchronize()
    close(cp.asnumpy(y), mg.reference_gemm(cp.asnumpy(x), qw), "cupy")


def test_quantlinear_grows_the_workspace_for_large_m():
    """M > 64 runs the sm90 kernels, whose split-K workspace grows with M: the op must size
    it by the call's M (a fused qkv 6144 x 4096 layer at M = 512 needed 50 MB where the
    M = 64 reservation gave 35 MB)."""
    torch.manual_seed(0)
    lin = torch.nn.Linear(4096, 6144, bias=False).half().to(DEV)
    layer = mt.QuantLinear.from_linear(lin, weight_type="u4b8", group_size=128, act_type="f16")
    with torch.no_grad():
        for M in (1, 64, 512, 2048):
            x = torch.randn(M, 4096, device=DEV).half()
            y = layer(x)
            ref = lin(x).float()
            assert ((y.float() - ref).norm() / ref.norm()).item() < 0.2, M


@pytest.mark.parametrize("act,M,N,K", [(a, m, 1024, 4096) for a in ("f16", "bf16") for m in (1, 5, 16)] +
                         [("f16", 1, 7168, 1024), ("f16", 16, 7168, 1024)])
def test_partial_sums(act, M, N, K):
    """QuantLinear(partial_sums=True): the decode GEMM's split-K parts, summed in order by the
    caller. Against the CPU reference as the plain layer is; compiled (inductor's fused sum) the
    same bits as eager; and the op's parts sum to the layer's output. 1024 x 4096: 4 stripes of 256
    columns, the cluster geometry (8 parts each); 7168 x 1024 (132 SMs: 28 stripes on 132 CTAs) the
    stream-K partition, whose stripes meet 5 or 6 CTAs (zero parts where 5)."""
    torch.manual_seed(M)
    dt = torch.bfloat16 if act == "bf16" else torch.float16
    lin = torch.nn.Linear(K, N).to(dt).to(DEV)
    qw = mt.quantize_weights(lin.weight.detach().t(), method="rtn", weight_type="u4b8", group_size=128, scale_type=act)
    ps = mt.QuantLinear.from_quantized(qw, lin.bias, act_type=act, device=DEV, partial_sums=True)
    S = ps._parts_by_m.get(M, 0)
    assert S == mg.partial_sums_count(M, N, K, act, "u4b8", act, False, act, 128) and 2 <= S <= 16, S
    x = torch.randn(M, K, device=DEV).to(dt)
    y = ps(x)
    bias = lin.bias.detach().cpu().numpy() if act == "f16" else lin.bias.detach()
    ref, _ = ref_out(x, qw.numpy(), act, bias=bias)
    close(y.float().cpu().numpy(), ref, f"partial sums {act} M={M}", rel=1e-2 if act == "bf16" else 4e-3)
    parts = mt.gemm_partial_sums(x, ps.qweight, N, group_scales=ps.scales, group_size=128)
    assert parts.shape == (S, M, N) and parts.dtype == torch.float32 and torch.isfinite(parts).all()
    assert torch.equal((mt.sum_partials(parts) + ps.bias.float()).to(dt), y)
    torch._dynamo.reset()  # each case compiles a new layer: stay clear of dynamo's recompile limit
    compiled = torch.compile(ps, fullgraph=True)
    assert torch.equal(compiled(x), y)
    # Where there is no partial-sum form (M > 16) the layer runs the plain gemm.
    x2 = torch.randn(32, K, device=DEV).to(dt)
    plain = mt.QuantLinear.from_quantized(qw, lin.bias, act_type=act, device=DEV)
    assert torch.equal(ps(x2), plain(x2))


@pytest.mark.parametrize("act,M,N,K", [(a, m, 1024, 4096) for a in ("s8", "e4m3") for m in (1, 5, 8)] +
                         [("s8", 1, 7168, 1024), ("e4m3", 8, 7168, 1024)])
def test_partial_sums_w4a8(act, M, N, K):
    """QuantLinear(partial_sums=True) for 8-bit activations: quantize, the decode GEMM's s32 (s8) or
    f32 (e4m3) parts, summed in order, times RN(tok * ch), cast. s8 sums integers, so the layer
    equals the CPU reference and the plain layer bit for bit whatever the split; e4m3 is checked
    against the reference with the plain layer's tolerance. Compiled equals eager bit for bit
    (inductor fuses the sum and the scales). With a bias the layer keeps the plain gemm (the
    kernel's fma(acc, s, bias) has no torch equivalent that rounds once)."""
    torch.manual_seed(M)
    lin = torch.nn.Linear(K, N, bias=False).half().to(DEV)
    method = {"s8": "qqq", "e4m3": "fp8"}[act]
    qw = mt.quantize_weights(lin.weight.detach().t(), method=method, weight_type="u4b8", group_size=128,
                             scale_type="f16")
    ps = mt.QuantLinear.from_quantized(qw, None, act_type=act, device=DEV, partial_sums=True)
    plain = mt.QuantLinear.from_quantized(qw, None, act_type=act, device=DEV)
    st = mg.default_scale_type(act)
    S = ps._parts_by_m.get(M, 0)
    assert S == mg.partial_sums_count(M, N, K, act, "u4b8", st, False, "f16", 128) and 2 <= S <= 16, S
    x = torch.randn(M, K, device=DEV).half()
    y = ps(x)
    ref, (q, tok) = ref_out(x, qw.numpy(), act)
    if act == "s8":
        assert np.array_equal(y.cpu().numpy(), ref), "s8 partial sums not bit-exact with the reference"
        assert torch.equal(y, plain(x))
    else:
        close(y.float().cpu().numpy(), ref, f"partial sums {act} M={M}")
    xq, t = mt.quantize_activations(x, act)
    parts = torch.ops.mixgemm.gemm_partial_sums(xq, ps.qweight, ps.scales, None, N, S, "u4b8", st, False, 128,
                                                "f16", "", False)
    assert parts.shape == (S, M, N) and parts.dtype == (torch.int32 if act == "s8" else torch.float32)
    assert torch.equal((mt.sum_partials(parts).float() * (t[:, None] * ps.channel_scales) + 0.0).half(), y)
    torch._dynamo.reset()  # each case compiles a new layer: stay clear of dynamo's recompile limit
    compiled = torch.compile(ps, fullgraph=True)
    assert torch.equal(compiled(x), y)
    # A bias with the token x channel scales: no partial-sum epilogue, the plain gemm.
    bias = torch.randn(N, device=DEV).half()
    psb = mt.QuantLinear.from_quantized(qw, bias, act_type=act, device=DEV, partial_sums=True)
    assert psb._parts_by_m == {}
    assert torch.equal(psb(x), mt.QuantLinear.from_quantized(qw, bias, act_type=act, device=DEV)(x))
