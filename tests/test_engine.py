"""The engine against independent oracles: plain float arithmetic, ``math`` and
central differences computed here (never vizgrad's own gradcheck)."""

from __future__ import annotations

import gc
import math
import random

import pytest

from vizgrad import Value, VizgradError
from vizgrad.core.value import add_with_overwrite_bug, topological_order
from vizgrad.exceptions import NumericOverflowError

H = 1e-6


def central(f, xs, i, h=H):
    """d f / d xs[i] by central differences on plain floats."""
    plus, minus = list(xs), list(xs)
    plus[i] += h
    minus[i] -= h
    return (f(*plus) - f(*minus)) / (2 * h)


def _relu(x):
    return x if x > 0 else 0.0


# (id, function on Values, the same function on floats, points)
# The float twin uses Python floats and ``math`` only: it is the oracle.
CASES = [
    ("add", lambda a, b: a + b, lambda a, b: a + b, [(1.5, -2.25), (-3.0, 0.5)]),
    ("radd", lambda a: 2.5 + a, lambda a: 2.5 + a, [(1.5,), (-4.0,)]),
    ("sub", lambda a, b: a - b, lambda a, b: a - b, [(1.5, -2.25), (0.0, 7.0)]),
    ("rsub", lambda a: 2.5 - a, lambda a: 2.5 - a, [(1.5,), (-4.0,)]),
    ("mul", lambda a, b: a * b, lambda a, b: a * b, [(1.5, -2.25), (-3.0, 0.5)]),
    ("rmul", lambda a: 2.5 * a, lambda a: 2.5 * a, [(1.5,), (-4.0,)]),
    ("truediv", lambda a, b: a / b, lambda a, b: a / b, [(1.5, -2.25), (-3.0, 0.5)]),
    ("rtruediv", lambda a: 2.5 / a, lambda a: 2.5 / a, [(1.5,), (-4.0,)]),
    ("neg", lambda a: -a, lambda a: -a, [(1.5,), (-4.0,)]),
    ("pow2", lambda a: a**2, lambda a: a**2, [(1.5,), (-4.0,)]),
    ("pow3", lambda a: a**3, lambda a: a**3, [(1.5,), (-1.25,)]),
    ("pow-1", lambda a: a**-1, lambda a: a**-1, [(1.5,), (-4.0,)]),
    ("pow-2", lambda a: a**-2, lambda a: a**-2, [(1.5,), (-0.75,)]),
    ("pow0.5", lambda a: a**0.5, lambda a: a**0.5, [(1.5,), (4.0,)]),
    ("pow1.7", lambda a: a**1.7, lambda a: a**1.7, [(1.5,), (0.3,)]),
    ("pow-2.5", lambda a: a**-2.5, lambda a: a**-2.5, [(1.5,), (0.8,)]),
    ("pow0", lambda a: a**0, lambda a: a**0, [(1.5,), (-2.0,), (0.0,)]),
    ("pow1/3", lambda a: a ** (1 / 3), lambda a: a ** (1 / 3), [(2.0,), (0.7,)]),
    ("exp", lambda a: a.exp(), math.exp, [(0.0,), (-1.5,), (2.25,)]),
    ("log", lambda a: a.log(), math.log, [(0.5,), (1.0,), (7.5,)]),
    ("tanh", lambda a: a.tanh(), math.tanh, [(0.0,), (-0.8,), (1.3,)]),
    ("relu", lambda a: a.relu(), _relu, [(1.5,), (-2.0,)]),
    ("sum", lambda a, b: sum([a, b, a * b]), lambda a, b: sum([a, b, a * b]),
     [(1.5, -2.25), (0.5, 4.0)]),
    ("sum-start", lambda a, b: sum([a, b], 10.0), lambda a, b: sum([a, b], 10.0), [(1.5, -2.25)]),
    ("shared", lambda a, b: a * a + a / b - b, lambda a, b: a * a + a / b - b, [(1.5, -2.25)]),
    ("composite", lambda a, b: (a * b).tanh() + (b**2).log() - (a - b).relu() * a.exp(),
     lambda a, b: math.tanh(a * b) + math.log(b**2) - _relu(a - b) * math.exp(a),
     [(0.3, -1.2), (1.1, 0.4)]),
]
PARAMS = [
    pytest.param(vf, ff, pt, id=f"{name}@{','.join(map(str, pt))}")
    for name, vf, ff, pts in CASES
    for pt in pts
]


def build(vf, pt):
    xs = [Value(x, label=f"x{i}") for i, x in enumerate(pt)]
    return xs, vf(*xs)


@pytest.mark.parametrize("vf, ff, pt", PARAMS)
def test_value_matches_float_arithmetic(vf, ff, pt):
    _, y = build(vf, pt)
    assert isinstance(y, Value)
    assert isinstance(y.data, float)
    assert y.data == pytest.approx(ff(*pt), rel=1e-14, abs=1e-15)


@pytest.mark.parametrize("vf, ff, pt", PARAMS)
def test_gradient_matches_central_differences(vf, ff, pt):
    xs, y = build(vf, pt)
    y.backward()
    for i, x in enumerate(xs):
        numeric = central(ff, pt, i)
        assert x.grad == pytest.approx(numeric, rel=1e-6, abs=1e-6), f"d/d x{i}"


@pytest.mark.parametrize("vf, ff, pt", PARAMS)
def test_changing_data_after_forward_does_not_change_backward(vf, ff, pt):
    xs, y = build(vf, pt)
    y.backward()
    expected = [x.grad for x in xs]
    for node in topological_order(y):  # every node, inputs and intermediates
        node.data = node.data * 3.0 + 17.0
    y.backward()
    assert [x.grad for x in xs] == expected


@pytest.mark.parametrize("vf, ff, pt", PARAMS)
def test_backward_twice_gives_the_same_grads(vf, ff, pt):
    xs, y = build(vf, pt)
    y.backward()
    first = [x.grad for x in xs]
    y.backward()
    assert [x.grad for x in xs] == first
    assert y.grad == 1.0


def test_sum_square_is_8_and_8_again():
    x = Value(3.0)
    y = x + x + x * x
    y.backward()
    assert x.grad == 8.0
    y.backward()
    assert x.grad == 8.0


def test_backward_zeroes_stale_grads_of_every_reachable_node():
    x = Value(3.0)
    h = x * x
    y = h + 1.0
    x.grad, h.grad = 123.0, -5.0
    y.backward()
    assert (x.grad, h.grad) == (6.0, 1.0)


def test_a_plus_a_keeps_both_parents_in_operand_order():
    a, b = Value(3.0, label="a"), Value(4.0, label="b")
    s = a + a
    assert len(s.parents) == 2
    assert s.parents[0] is a and s.parents[1] is a
    p = b * a
    assert p.parents[0] is b and p.parents[1] is a
    s.backward()
    assert a.grad == 2.0
    m = a * a
    m.backward()
    assert a.grad == 6.0


def test_fields_of_a_new_value():
    v = Value(2, label="w")
    assert (v.data, v.grad, v.parents, v.op, v.label) == (2.0, 0.0, (), "", "w")
    assert type(v.data) is float
    v._backward()  # a leaf's closure does nothing
    assert v.grad == 0.0


def test_constants_are_wrapped_and_marked():
    a = Value(1.0)
    y = a + 2
    const = y.parents[1]
    assert isinstance(const, Value) and const.data == 2.0
    assert const.is_const and not a.is_const and not y.is_const


def test_micrograd_private_names_are_read_only():
    a, b = Value(1.0), Value(2.0)
    y = a * b
    assert y._prev == {a, b}
    assert y._op == "*" == y.op
    assert (a + a)._prev == {a}
    with pytest.raises(AttributeError):
        y._prev = set()
    with pytest.raises(AttributeError):
        y._op = "+"
    assert y._prev == {a, b} and y._op == "*"


def test_a_million_node_chain_backward_has_no_recursion_error():
    gc_was_enabled = gc.isenabled()
    gc.disable()  # building 10**6 objects: keep the collector out of the way
    try:
        x = Value(0.5)
        y = x
        for _ in range(1_000_000):
            y = y.relu()
        y.backward()
        assert x.grad == 1.0 and y.data == 0.5 and y.grad == 1.0
        del x, y
    finally:
        if gc_was_enabled:
            gc.enable()
        gc.collect()


@pytest.mark.parametrize("x, y", [(1000.0, 1.0), (-1000.0, -1.0), (25.0, 1.0)], ids=str)
def test_tanh_is_stable_for_large_inputs(x, y):
    v = Value(x)
    t = v.tanh()
    t.backward()
    assert t.data == y
    assert v.grad == pytest.approx(1.0 - math.tanh(x) ** 2, abs=1e-300)
    assert not math.isnan(v.grad)


def test_one_overflow_rule_for_every_op():
    """A result past a float from finite operands is refused, whatever the op; an operand that
    is already inf or nan carries on as IEEE arithmetic says (nothing overflowed here)."""
    a = Value(1e200, label="a")
    for make in (lambda: a * a, lambda: a**2, lambda: (a * 1e108).exp(), lambda: a * 1e200 + 0):
        with pytest.raises(NumericOverflowError, match="overflows a float"):
            make()
    inf = Value(float("inf"))
    assert (inf * 2).data == math.inf and (inf + -1e308).data == math.inf
    assert math.isnan((inf + -inf).data) and math.isnan((inf * 0).data)
    big = Value(1e154)
    assert (big * big).data == 1e154 * 1e154  # the largest squares still fit


def test_the_exp_formula_overflows_where_tanh_does_not():
    n = Value(1000.0)
    assert n.tanh().data == 1.0
    with pytest.raises(OverflowError):
        (2 * n).exp()


@pytest.mark.parametrize("x, grad", [(0.0, 0.0), (-0.0, 0.0), (1e-300, 1.0), (-1e-300, 0.0)],
                         ids=str)
def test_relu_gradient_at_and_near_zero(x, grad):
    v = Value(x)
    r = v.relu()
    r.backward()
    assert r.data == max(x, 0.0)
    assert v.grad == grad


# (id, a zero-argument callable, builtin exception, words the message must contain)
ERRORS = [
    ("log0", lambda: Value(0.0).log(), ValueError, ["log", "0.0"]),
    ("log-neg", lambda: Value(-1.5).log(), ValueError, ["log", "-1.5"]),
    ("log-nan", lambda: Value(float("nan")).log(), ValueError, ["log", "nan"]),
    ("neg-base-frac", lambda: Value(-8.0) ** 0.5, ValueError, ["**", "-8.0", "0.5"]),
    ("neg-base-third", lambda: Value(-8.0) ** (1 / 3), ValueError, ["**", "-8.0"]),
    ("zero-neg-int", lambda: Value(0.0) ** -1, ValueError, ["**", "0.0", "-1"]),
    ("zero-neg-frac", lambda: Value(0.0) ** -2.5, ValueError, ["**", "0.0", "-2.5"]),
    ("div-by-zero", lambda: Value(1.0) / Value(0.0), ValueError, ["0.0"]),
    ("rdiv-by-zero", lambda: 1.0 / Value(0.0), ValueError, ["0.0"]),
    ("value-exponent", lambda: Value(2.0) ** Value(3.0), TypeError, ["**", "exponent", "Value"]),
    ("str-exponent", lambda: Value(2.0) ** "3", TypeError, ["**", "'3'"]),
    ("exp-overflow", lambda: Value(1000.0).exp(), OverflowError, ["exp", "1000.0"]),
    ("exp-overflow-710", lambda: Value(710.0).exp(), OverflowError, ["exp", "710.0"]),
    ("pow-overflow", lambda: Value(10.0) ** 400, OverflowError, ["**", "10.0", "400"]),
    ("mul-overflow", lambda: Value(1e200) * Value(1e200), OverflowError,
     ["(1e+200) * (1e+200) overflows a float", "scale"]),
    ("square-by-mul-overflow", lambda: (lambda a: a * a)(Value(1e200)), OverflowError,
     ["(1e+200) * (1e+200)"]),
    ("add-overflow", lambda: Value(1e308) + Value(1e308), OverflowError,
     ["(1e+308) + (1e+308) overflows a float"]),
    ("sub-overflow", lambda: Value(-1e308) - 1e308, OverflowError, ["+", "overflows a float"]),
    ("rmul-overflow", lambda: 1e300 * Value(1e10), OverflowError, ["*", "overflows a float"]),
    ("div-overflow", lambda: Value(1e300) / 1e-10, OverflowError, ["overflows a float"]),
    ("overwrite-bug-overflow", lambda: add_with_overwrite_bug(Value(1e308), 1e308),
     OverflowError, ["+", "overflows a float"]),
    ("add-str", lambda: Value(1.0) + "x", TypeError, ["+", "'x'", "str"]),
    ("radd-str", lambda: "x" + Value(1.0), TypeError, ["+", "'x'", "str"]),
    ("mul-none", lambda: Value(1.0) * None, TypeError, ["*", "None"]),
    ("rmul-none", lambda: None * Value(1.0), TypeError, ["*", "None"]),
    ("sub-str", lambda: Value(1.0) - "x", TypeError, ["-", "'x'"]),
    ("rsub-none", lambda: None - Value(1.0), TypeError, ["-", "None"]),
    ("div-str", lambda: Value(1.0) / "x", TypeError, ["/", "'x'"]),
    ("rdiv-none", lambda: None / Value(1.0), TypeError, ["/", "None"]),
    ("sum-with-str", lambda: sum([Value(1.0), "x"]), TypeError, ["+", "'x'"]),
    ("new-from-str", lambda: Value("3"), TypeError, ["Value", "'3'"]),
    ("new-from-none", lambda: Value(None), TypeError, ["Value", "None"]),
    ("new-from-bool", lambda: Value(True), TypeError, ["Value", "True"]),
    ("new-from-huge-int", lambda: Value(10**400), OverflowError, ["Value", "float"]),
    ("add-huge-int", lambda: Value(1.0) + 10**400, OverflowError, ["+", "float"]),
    ("huge-int-exponent", lambda: Value(2.0) ** 10**400, OverflowError, ["**", "float"]),
]


@pytest.mark.parametrize("make, builtin, words", [pytest.param(*e[1:], id=e[0]) for e in ERRORS])
def test_bad_input_raises_a_clear_vizgrad_error(make, builtin, words):
    with pytest.raises(builtin) as info:
        make()
    assert isinstance(info.value, VizgradError), type(info.value).__mro__
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def test_zero_to_the_power_zero_is_one_with_gradient_zero():
    x = Value(0.0)
    y = x**0
    y.backward()
    assert (y.data, x.grad) == (1.0, 0.0)


@pytest.mark.parametrize("k", [1 / 3, 0.1, 2.000001, -0.7777777777], ids=repr)
def test_power_op_name_keeps_the_exact_exponent(k):
    """The op string is what JSON and gradcheck re-evaluate from."""
    y = Value(2.0) ** k
    assert y.op.startswith("**")
    assert float(y.op[2:]) == k


def test_integer_exponent_op_name_is_short():
    assert (Value(2.0) ** 2).op == "**2"
    assert (Value(2.0) ** -1).op == "**-1"


@pytest.mark.parametrize(
    "first, second",
    [((3.0, 3.0), (2.0, 1.0)), ((3.0, 5.0), (1.0, 1.0))],
    ids=["a+a", "a+b"],
)
def test_overwrite_bug_loses_a_contribution_only_when_shared(first, second):
    a = Value(first[0])
    b = a if first[0] == first[1] else Value(first[1])
    good = a + b
    good.backward()
    good_grads = (a.grad, b.grad)
    bad = add_with_overwrite_bug(a, b)
    bad.backward()
    assert bad.data == good.data
    if a is b:
        assert good_grads == (2.0, 2.0) and a.grad == 1.0
    else:
        assert good_grads == (1.0, 1.0) and (a.grad, b.grad) == (1.0, 1.0)
    assert bad.overwrites and not good.overwrites


# -- a program written for micrograd.engine.Value, unchanged ----------------------------------

MICROGRAD_PROGRAM = '''
import random

class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0
    def parameters(self):
        return []

class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin
    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act
    def parameters(self):
        return self.w + [self.b]

class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]
    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out
    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

class MLP(Module):
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1)
                       for i in range(len(nouts))]
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

random.seed(1337)
model = MLP(3, [4, 4, 1])
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
losses, grads = [], []
for k in range(8):
    ypred = [model(x) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))
    model.zero_grad()
    loss.backward()
    grads.append([p.grad for p in model.parameters()])
    for p in model.parameters():
        p.data += -0.01 * p.grad
    losses.append(loss.data)
'''


def run_program(value_class):
    namespace = {"Value": value_class}
    exec(compile(MICROGRAD_PROGRAM, "<micrograd program>", "exec"), namespace)  # test code only
    return namespace["losses"], namespace["grads"]


def test_micrograd_program_runs_unchanged_and_agrees_with_micrograd():
    from micrograd.engine import Value as MicrogradValue

    state = random.getstate()
    try:
        losses, grads = run_program(Value)
        ref_losses, ref_grads = run_program(MicrogradValue)
    finally:
        random.setstate(state)
    assert len(losses) == 8 and all(isinstance(v, float) for v in losses)
    assert losses[-1] < losses[0]  # it trains
    assert losses == pytest.approx(ref_losses, rel=1e-12, abs=1e-12)
    for mine, ref in zip(grads, ref_grads):
        assert mine == pytest.approx(ref, rel=1e-12, abs=1e-12)
    assert any(g != 0 for g in grads[0])


def test_backward_documents_the_difference_from_micrograd_and_pytorch():
    doc = Value.backward.__doc__
    assert "micrograd" in doc and "PyTorch" in doc and "twice" in doc


def test_division_by_a_zero_value_names_the_division():
    from vizgrad import Value
    from vizgrad.exceptions import DomainError

    with pytest.raises(DomainError, match=r"/ 0.0: division by zero"):
        Value(1.0) / Value(0.0)
