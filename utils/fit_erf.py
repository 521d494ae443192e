#!/usr/bin/env python3
"""fit_erf.py - fits the rational approximation tcc-approximate-math uses for f32 erf:

    erf(x) ~= x * P(x^2) / Q(x^2),  x clamped to [-4, 4],  P of degree 6, Q of degree 5, Q(0) = 1

by linearized least squares on Chebyshev nodes of [0, 4], reweighted by 1/Q a few times
(Sanathanan-Koerner), against math.erf in double. Prints the coefficients and the maximum
absolute error of the f32 Horner evaluation on [-5, 5] (about 3e-7; the double fit is 2e-9).
"""
import math

import numpy as np

P, Q, X, N = 6, 5, 4.0, 4000


def fit():
    x = (np.cos(np.pi * (np.arange(N) + 0.5) / N) * 0.5 + 0.5) * X
    y = np.array([math.erf(v) for v in x])
    z = x * x
    w = np.ones(N)
    for _ in range(12):
        a = np.hstack([x[:, None] * z[:, None] ** np.arange(P + 1),
                       -(y[:, None] * z[:, None] ** np.arange(1, Q + 1))])
        c, *_ = np.linalg.lstsq(a * w[:, None], y * w, rcond=None)
        p, q = c[:P + 1], np.concatenate([[1.0], c[P + 1:]])
        w = 1 / np.abs(np.polyval(q[::-1], z))
    return p, q


def f32_erf(xs, p, q):
    xc = np.clip(xs, np.float32(-X), np.float32(X))
    z = xc * xc
    num, den = np.float32(p[-1]), np.float32(q[-1])
    for k in p[-2::-1]:
        num = (num * z + np.float32(k)).astype(np.float32)
    for k in q[-2::-1]:
        den = (den * z + np.float32(k)).astype(np.float32)
    return (xc * num / den).astype(np.float32)


def main():
    p, q = fit()
    xs = np.linspace(-5, 5, 200001).astype(np.float32)
    ref = np.array([math.erf(float(v)) for v in xs])
    print("P:", ", ".join(f"{v:.17g}" for v in p))
    print("Q:", ", ".join(f"{v:.17g}" for v in q))
    print(f"max abs error of the f32 evaluation on [-5, 5]: {np.max(np.abs(f32_erf(xs, p, q) - ref)):.3g}")


if __name__ == "__main__":
    main()
