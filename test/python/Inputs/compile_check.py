"""compile_check.py CACHE_DIR CASE... - tcc.compile against eager PyTorch:
each case builds a module, compiles it with tcc.compile and compares the
outputs with the module's own (rtol 1e-3, atol 1e-4), printing one line per
case. Cases: small hand-written modules (tuple, dict, two inputs, int64
inputs, a dynamic batch), suite:NAME (a model of models/export_suite.py),
cache (a second compile loads the library without exporting), unsupported
(an exception naming every unsupported node and its module), fallback
(eager, with a warning), load (tcc.load runs the compiled library), save."""
import os
import sys
import time
import warnings

import numpy as np
import torch

import tcc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "models"))

torch.manual_seed(0)
CACHE = sys.argv[1]


def close(name, got, want):
    import torch.utils._pytree as pytree
    g, gs = pytree.tree_flatten(got)
    w, ws = pytree.tree_flatten(want)
    assert gs == ws, f"{name}: structure {gs} != eager's {ws}"
    worst = 0.0
    for a, b in zip(g, w):
        assert a.shape == b.shape and a.dtype == b.dtype, \
            f"{name}: {a.shape} {a.dtype} vs eager {b.shape} {b.dtype}"
        if a.dtype.is_floating_point:
            assert torch.allclose(a, b, rtol=1e-3, atol=1e-4), \
                f"{name}: max |diff| {(a - b).abs().max():.3g}"
            worst = max(worst, float((a - b).abs().max()) if a.numel() else 0)
        else:
            assert torch.equal(a, b), f"{name}: integer outputs differ"
    return worst


class Pair(torch.nn.Module):  # two inputs, a tuple out
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 8)

    def forward(self, x, y):
        h = torch.relu(self.fc(x)) + y
        return h, h.sum(dim=1)


class Dict(torch.nn.Module):  # a dict out, a nested tuple
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        y = self.conv(x)
        return {"features": y, "pooled": (y.mean(dim=(2, 3)), y.amax(dim=1))}


class Embed(torch.nn.Module):  # int64 input
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(100, 32)
        self.proj = torch.nn.Linear(32, 4)

    def forward(self, ids):
        return self.proj(self.emb(ids)).softmax(dim=-1)


class Odd(torch.nn.Module):  # ops tcc does not support: Unique, Det
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(4, 4)
        self.tail = Tail()

    def forward(self, x):
        return self.tail(self.head(x))


class Eig(torch.nn.Module):  # no exporter takes complex eigenvalues
    def forward(self, x):
        return torch.linalg.eigvals(x).real


class Tail(torch.nn.Module):
    def forward(self, x):
        return torch.unique(x.round()), torch.det(x)


def compile_case(name, module, example, **kwargs):
    module.eval()
    fast = tcc.compile(module, example, cache_dir=CACHE, **kwargs)
    with torch.no_grad():
        want = module(*example)
    worst = close(name, fast(*example), want)
    print(f"{name}: ok (max |diff| {worst:.2g})")
    return fast


def main():
    for case in sys.argv[2:]:
        if case == "pair":
            compile_case(case, Pair(), (torch.randn(2, 16), torch.randn(2, 8)))
        elif case == "dict":
            x = torch.randn(1, 3, 10, 10)
            fast = compile_case(case, Dict(), (x,))
            # numpy in, numpy out, in the same structure
            got = fast(x.numpy())
            assert isinstance(got["pooled"][0], np.ndarray), type(got)
            np.testing.assert_allclose(got["features"],
                                       fast(x)["features"].numpy())
            print("dict: numpy in, numpy out")
        elif case == "int64":
            compile_case(case, Embed(),
                         (torch.randint(0, 100, (2, 7), dtype=torch.int64),))
        elif case == "batch":
            module = Pair().eval()
            fast = compile_case(case, module,
                                (torch.randn(2, 16), torch.randn(2, 8)),
                                dynamic={"batch": [(0, "x"), (0, "y")]})
            for b in (1, 5):
                x, y = torch.randn(b, 16), torch.randn(b, 8)
                with torch.no_grad():
                    close(f"batch {b}", fast(x, y), module(x, y))
            print("batch: ok at batches 1 and 5 from one compile")
        elif case.startswith("suite:"):
            import export_suite
            spec = export_suite.by_name(case[len("suite:"):])
            torch.manual_seed(0)
            module = spec.build()
            feeds = export_suite.make_feeds(spec, dims={"batch": 1,
                                                        "seq": 16})
            example = tuple(torch.from_numpy(feeds[i.name])
                            for i in spec.inputs)
            compile_case(case, module, example)
        elif case == "cache":
            # The same module (code, structure, weights) and inputs: a
            # library from the cache, no export, no tcc compile.
            torch.manual_seed(1)
            a = Dict().eval()
            example = (torch.randn(1, 3, 10, 10),)
            first = tcc.compile(a, example, cache_dir=CACHE)
            torch.manual_seed(1)
            b = Dict().eval()
            start = time.perf_counter()
            second = tcc.compile(b, example, cache_dir=CACHE)
            seconds = time.perf_counter() - start
            assert not first.from_cache and second.from_cache, \
                (first.from_cache, second.from_cache)
            assert second.library == first.library
            with torch.no_grad():
                close(case, second(*example), b(*example))
            # Other weights: another library.
            torch.manual_seed(2)
            c = Dict().eval()
            third = tcc.compile(c, example, cache_dir=CACHE)
            assert not third.from_cache and third.library != first.library
            with torch.no_grad():
                close(case, third(*example), c(*example))
            print(f"cache: second compile from the cache "
                  f"({'under' if seconds < 1 else 'OVER'} a second); "
                  f"new weights compile again")
        elif case == "unsupported":
            try:
                tcc.compile(Odd().eval(), (torch.randn(4, 4),),
                            cache_dir=CACHE)
            except tcc.TccCompileError as e:
                print("unsupported:", str(e).replace("\n", " | "))
                print("unsupported ops:",
                      sorted((u["op"], u["module"]) for u in e.unsupported))
            else:
                sys.exit("unsupported: no exception")
        elif case == "train":
            # A module in training mode: compiled as in eval mode, its batch
            # norm's running stats untouched, still training after.
            module = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3),
                                         torch.nn.BatchNorm2d(4),
                                         torch.nn.ReLU()).train()
            before = module[1].running_mean.clone()
            x = torch.randn(1, 3, 8, 8)
            fast = tcc.compile(module, (x,), cache_dir=CACHE)
            assert module.training
            assert torch.equal(before, module[1].running_mean)
            with torch.no_grad():
                close(case, fast(x), module.eval()(x))
            print("train: compiled as in eval mode, the module untouched")
        elif case == "export":
            print("export: start")
            try:
                tcc.compile(Eig(), (torch.randn(3, 3),), cache_dir=CACHE)
            except tcc.TccCompileError as e:
                print("export:", str(e)[:160])
            else:
                sys.exit("export: no exception")
        elif case == "fallback":
            module = Odd().eval()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                same = tcc.compile(module, (torch.randn(4, 4),),
                                   cache_dir=CACHE, fallback="eager")
                tcc.compile(module, (torch.randn(4, 4),), cache_dir=CACHE,
                            fallback="eager")
            assert same is module
            ours = [w for w in caught if "tcc.compile" in str(w.message)]
            print(f"fallback: the module itself, {len(ours)} warning:",
                  str(ours[0].message).splitlines()[0])
        elif case == "load":
            module = Pair().eval()
            example = (torch.randn(3, 16), torch.randn(3, 8))
            fast = tcc.compile(module, example, cache_dir=CACHE)
            m = tcc.load(fast.library, threads=1)
            print("load:", m.input_names, m.output_names,
                  [(t.shape, t.dtype) for t in m.inputs])
            outs = m.run({"x": example[0].numpy(), "y": example[1].numpy()})
            with torch.no_grad():
                want = module(*example)
            for got, w in zip(outs, want):
                assert isinstance(got, np.ndarray)
                np.testing.assert_allclose(got, w.numpy(), rtol=1e-3,
                                           atol=1e-4)
            try:
                m.run([example[0][:, :8].numpy(), example[1].numpy()])
            except tcc.TccError as e:
                print("load: wrong shape:", e)
            else:
                sys.exit("load: no error for a wrong shape")
        elif case == "save":
            fast = tcc.compile(Pair().eval(),
                               (torch.randn(2, 16), torch.randn(2, 8)),
                               cache_dir=CACHE)
            out = os.path.join(CACHE, "saved", "pair.o")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            fast.save(out)
            print("save:", sorted(os.listdir(os.path.dirname(out))))
        else:
            sys.exit(f"unknown case {case}")


if __name__ == "__main__":
    main()
