"""PyTorch integration tests that need no GPU: the torch quantizers against the library's
CPU quantizers (bit for bit), QuantLinear's buffers and state dict, and tracing of the
custom ops through their fake implementations (meta tensors, torch.compile fullgraph).
Skipped, with the reason, where PyTorch is not installed (CI installs only NumPy)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed: the mixgemm.torch tests need it")

import mixgemm as mg  # noqa: E402
import mixgemm.torch as mt  # noqa: E402

CASES = [("rtn", "u4b8", 128, "f16"), ("rtn", "u4", 128, "f16"), ("rtn", "u4b8", 64, "bf16"),
         ("rtn", "u8b128", 0, "f16"), ("rtn", "u4", 0, "f16"), ("rtn", "u8", 128, "bf16"),
         ("qqq", "u4b8", 128, "f16"), ("qqq", "u4b8", 0, "f16"), ("fp8", "u4b8", 128, "f16"),
         ("fp8", "u4", 128, "f16")]


def same(a, b):
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def check_quantizers(device):
    rng = np.random.default_rng(7)
    for K, N in [(256, 128), (512, 48)]:
        w = (rng.standard_normal((K, N)) * 0.02).astype(np.float32)
        w[:, 3] = 0  # an all-zero column
        w[5, 7] = 0.5  # an outlier
        for method, wt, g, st in CASES:
            ref = mg.quantize_weights(w, method, wt, g, st)
            got = mt.quantize_weights(torch.from_numpy(w).to(device), method, wt, g, st).numpy()
            what = (K, N, method, wt, g, st)
            assert got.scale_type == ref.scale_type, what
            for f in ("q", "group_scales", "zeros", "channel_scales"):
                assert same(getattr(got, f), getattr(ref, f)), (what, f)


def test_torch_quantizers_match_cpu_quantizers_cpu():
    check_quantizers("cpu")


def test_quantize_weights_from_f16_linear():
    lin = torch.nn.Linear(256, 64).half()
    a = mg.quantize_weights(lin.weight.detach().t().contiguous().numpy(), "rtn", "u4b8", 128)
    b = mt.quantize_weights(lin.weight.detach().t(), "rtn", "u4b8", 128).numpy()
    assert same(a.q, b.q) and same(a.group_scales, b.group_scales)


@pytest.mark.parametrize("act", ["f16", "bf16", "s8", "e4m3"])
def test_quantlinear_state_dict_roundtrip(act):
    torch.manual_seed(0)
    lin = torch.nn.Linear(256, 128)
    q = mt.QuantLinear.from_linear(lin, act_type=act, device="cpu")
    sd = q.state_dict()
    assert sd["qweight"].dtype == torch.uint8 and sd["qweight"].numel() == mg.prepacked_size(256, 128)
    q2 = mt.QuantLinear(256, 128, True, act_type=act, device="cpu", has_channel_scales=q.channel_scales is not None)
    q2.load_state_dict(sd)
    for k, v in q2.state_dict().items():
        assert torch.equal(v, sd[k]), k
    # Weights prepacked in another layout version are refused, not misread.
    assert int(sd["layout_version"]) == mg.PREPACKED_LAYOUT_VERSION
    old = dict(sd, layout_version=torch.tensor(mg.PREPACKED_LAYOUT_VERSION + 1, dtype=torch.int32))
    with pytest.raises(mg.InvalidArgumentError, match="layout version"):
        q2.load_state_dict(old)
    # The prepacked bytes are the library's CPU prepack of the quantized integers.
    method = {"s8": "qqq", "e4m3": "fp8"}.get(act, "rtn")
    qw = mg.quantize_weights(lin.weight.detach().t().contiguous().numpy(), method, "u4b8", 128,
                             act if act in ("f16", "bf16") else "f16")
    assert np.array_equal(sd["qweight"].numpy(), mg.prepack(qw.q, act_type=act))


@pytest.mark.parametrize("act", ["f16", "bf16", "s8", "e4m3"])
def test_fake_impls_trace_under_compile(act):
    m = mt.QuantLinear(256, 128, True, act_type=act, device="meta")
    x = torch.empty(3, 5, 256, dtype=m.dtype, device="meta")
    y = m(x)
    assert y.shape == (3, 5, 128) and y.dtype == m.dtype
    compiled = torch.compile(m, backend="eager", fullgraph=True)
    assert compiled(x).shape == (3, 5, 128)


def test_gptq_state_dict_loader_cpu():
    rng = np.random.default_rng(3)
    K, N, G = 256, 64, 2
    q = rng.integers(0, 16, size=(K, N), dtype=np.uint8)
    z = rng.integers(1, 16, size=(G, N), dtype=np.uint8)
    s = (rng.random((G, N)) * 0.01 + 0.001).astype(np.float16)
    sd = {"l.qweight": torch.from_numpy(mg._C.gptq_pack_qweight(q)),
          "l.qzeros": torch.from_numpy(mg._C.gptq_pack_qzeros(z)),
          "l.scales": torch.from_numpy(s), "l.bias": torch.zeros(N, dtype=torch.float16)}
    layer = mt.QuantLinear.from_state_dict(sd, "l.", fmt="gptq", device="cpu")
    assert layer.has_zeros and layer.weight_type == "u4"
    assert np.array_equal(layer.qweight.numpy(), mg.prepack(q))
    zs = mg.prepack_zeros(z, s, "f16")
    assert np.array_equal(layer.zeros.numpy(), zs)


def test_cuda_ops_refuse_cpu_tensors():
    layer = mt.QuantLinear.from_linear(torch.nn.Linear(128, 64).half(), device="cpu")
    with pytest.raises(mg.InvalidArgumentError, match="CUDA device"):
        layer(torch.zeros(2, 128, dtype=torch.float16))


def test_ops_refuse_operands_the_kernels_would_misread():
    # The ops hand bare pointers to the library: a tensor of another element size, layout or size
    # than the pointer is read as must be refused before it (mixgemm.gemm's array rules).
    K, N, M = 256, 128, 4
    a = torch.zeros(M, K, dtype=torch.float16)
    b = torch.zeros(mg.prepacked_size(K, N, "u4b8"), dtype=torch.uint8)
    s = torch.zeros(K // 128, N, dtype=torch.float16)
    ch, bias = torch.ones(N), torch.zeros(N, dtype=torch.float16)
    check = mt._check_operands
    check("gemm", a, b, N, "u4b8", "f16", 128, "f16", s, None, ch, None, bias)  # valid: no error
    # A group size that does not divide K is the library's to refuse (test_gpu.py checks its message).
    check("gemm", a, b, N, "u4b8", "f16", 48, "f16", s, None, ch, None, bias)
    bad = [
        (dict(group_scales=s.float()), "group_scales is torch.float32 but is read as f16"),
        (dict(group_scales=s.view(torch.int16).int()), "group_scales has 4-byte elements"),
        (dict(group_scales=torch.zeros(N, K // 128, dtype=torch.float16).t()), "group_scales must be contiguous"),
        (dict(group_scales=s[:1]), r"group_scales has 128 elements, shape \(1, 128\); expected 256"),
        (dict(b=b[:-16]), "b holds"),
        (dict(channel_scales=ch.half()), "channel_scales is torch.float16 but is read as f32"),
        (dict(token_scales=torch.ones(M + 1)), "token_scales has 5 elements"),
        (dict(bias=bias.float()), "bias is torch.float32 but is read as f16"),
        (dict(a=a[0]), "a must be 2-D"),
        # Same element size, other type: read through the pointer it would be garbage.
        (dict(group_scales=s.to(torch.bfloat16)), "group_scales is torch.bfloat16 but is read as f16"),
        (dict(bias=bias.to(torch.bfloat16)), "bias is torch.bfloat16 but is read as f16"),
    ]
    for change, msg in bad:
        args = dict(a=a, b=b, group_scales=s, channel_scales=ch, token_scales=None, bias=bias)
        args.update(change)
        with pytest.raises(mg.InvalidArgumentError, match=msg):
            check("gemm", args["a"], args["b"], N, "u4b8", "f16", 128, "f16", args["group_scales"], None,
                  args["channel_scales"], args["token_scales"], args["bias"])
    # s8: u8 group scales and u8 prepacked zero points; per-channel e4m3 zeros take f16.
    a8 = torch.zeros(M, K, dtype=torch.int8)
    su8, zu8 = torch.ones(K // 128, N, dtype=torch.uint8), torch.zeros(K // 128, N, dtype=torch.uint8)
    check("gemm", a8, b, N, "u4", "u8", 128, "bf16", su8, zu8, ch, torch.ones(M), None)
    with pytest.raises(mg.InvalidArgumentError, match="group_zeros is torch.float16 but is read as u8"):
        check("gemm", a8, b, N, "u4", "u8", 128, "bf16", su8, zu8.half(), ch, torch.ones(M), None)
    ae = torch.zeros(M, K, dtype=torch.float8_e4m3fn)
    check("gemm", ae, b, N, "u4", "f16", 0, "f16", None, torch.zeros(1, N, dtype=torch.float16), ch, torch.ones(M))


def test_workspace_order_follows_the_streams(monkeypatch):
    # _order_workspace's bookkeeping with stand-in streams: the first stream and repeated calls on
    # it cost nothing; a switch records an event on the previous stream, makes the new one wait on
    # it and (outside capture) marks the workspace as used by the new stream. Two capturing streams
    # (a fork / join capture's branches) are ordered the same way, by an edge of the graph; a
    # capturing and a non-capturing stream cannot be, and are not.
    log = []

    class FakeStream:
        def __init__(self, name):
            self.name = name
            self.capturing = False

        def wait_event(self, ev):
            log.append(("wait", self.name, ev.on))

    class FakeEvent:
        def record(self, stream):
            self.on = stream.name
            log.append(("record", stream.name))

    class FakeWs:
        def record_stream(self, stream):
            log.append(("used_by", stream.name))

    monkeypatch.setattr(torch.cuda, "Event", FakeEvent)
    monkeypatch.setattr(mt, "_stream_capturing", lambda s: s.capturing)
    monkeypatch.setattr(mt, "_ws_stream", {})
    monkeypatch.setattr(mt, "_workspaces", {7: FakeWs()})
    s1, s2, s3 = FakeStream("s1"), FakeStream("s2"), FakeStream("s3")
    mt._order_workspace(7, s1)
    mt._order_workspace(7, s1)
    assert log == []
    mt._order_workspace(7, s2)
    assert log == [("record", "s1"), ("wait", "s2", "s1"), ("used_by", "s2")]
    log.clear()
    s1.capturing = s3.capturing = True  # a capture on s1 forks to s3
    mt._order_workspace(7, s1)  # after eager work on s2: no dependency is possible
    assert log == [] and mt._ws_stream[7] is s1
    mt._order_workspace(7, s3)  # the side branch waits for the main one's calls: a graph edge
    assert log == [("record", "s1"), ("wait", "s3", "s1")]
    log.clear()
    mt._order_workspace(7, s1)  # and back
    assert log == [("record", "s3"), ("wait", "s1", "s3")]
    log.clear()
    s1.capturing = s3.capturing = False
    mt._order_workspace(7, s2)
    assert log == [("record", "s1"), ("wait", "s2", "s1"), ("used_by", "s2")]


def test_a_workspace_a_graph_captured_outlives_its_replacement(monkeypatch):
    # A CUDA graph keeps the workspace address it captured: when a later call grows the workspace,
    # the one a capture used is kept (retired), not freed; one no capture used is freed as before.
    capturing = [False]
    monkeypatch.setattr(torch.cuda, "is_current_stream_capturing", lambda: capturing[0])
    monkeypatch.setattr(torch.cuda, "current_stream", lambda idx=None: "s")
    monkeypatch.setattr(mt, "_order_workspace", lambda idx, stream: None)
    real_zeros = torch.zeros
    monkeypatch.setattr(torch, "zeros", lambda n, dtype, device: real_zeros(n, dtype=dtype))
    monkeypatch.setattr(mt, "_workspaces", {})
    monkeypatch.setattr(mt, "_ws_in_graph", set())
    monkeypatch.setattr(mt, "_retired_workspaces", [])
    w1 = mt._reserve_workspace_locked(3, 1000)
    capturing[0] = True
    assert mt._reserve_workspace_locked(3, 500) is w1  # captured into a graph
    with pytest.raises(mg.MixgemmError, match="during CUDA graph capture"):
        mt._reserve_workspace_locked(3, 2000)
    capturing[0] = False
    w2 = mt._reserve_workspace_locked(3, 2000)
    assert w2 is not w1 and w2.numel() >= 2000
    assert len(mt._retired_workspaces) == 1 and mt._retired_workspaces[0] is w1
    w3 = mt._reserve_workspace_locked(3, 4000)  # w2 was never captured: not kept
    assert w3 is not w2 and len(mt._retired_workspaces) == 1


def test_eager_calls_skip_the_dispatcher_only_for_plain_cuda_tensors():
    # A plain CUDA tensor outside torch.compile runs the op's implementation directly; CPU / meta
    # tensors and tensor subclasses (a fake CUDA tensor here, as torch.compile and export trace
    # with) go through torch.ops.mixgemm.*, whose fake implementations they need.
    from torch._subclasses.fake_tensor import FakeTensorMode
    assert not mt._eager(torch.zeros(2))
    assert not mt._eager(torch.empty(2, device="meta"))
    with FakeTensorMode():
        fake_cuda = torch.empty(2, 3, device="cuda")
    assert fake_cuda.is_cuda and not mt._eager(fake_cuda)
    # The registered ops keep the plain implementations as their kernels.
    assert torch.ops.mixgemm.gemm.default is not None and mt._gemm_op is not None
