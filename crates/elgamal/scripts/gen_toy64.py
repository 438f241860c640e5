#!/usr/bin/env python3
"""Generates the parameters of the `toy64` curve, reproducibly.

toy64 is a short-Weierstrass curve y^2 = x^3 + a*x + b over a 64-bit prime
field with a prime number of points. It stands in for the 64-bit keys of
seed 002 and is BREAKABLE: a 64-bit elliptic-curve discrete logarithm takes
hours on one machine (a 112-bit prime ECDLP was solved in 2009). It exists to
show how key size drives speed, never to protect anything.

Rules (anyone can rerun this and get the same numbers; plain Python 3):
  p: the largest prime below 2^64 with p = 3 (mod 4), so square roots are
     one exponentiation, a^((p+1)/4).
  a: p - 3 (a = -3, as in the NIST curves).
  b: for counter = 0, 1, 2, ...: int(SHA-256("cryptobench toy64 b" || counter)) mod p;
     the first b whose curve is non-singular and has a prime number of
     points n (found by baby-step giant-step inside the Hasse interval)
     with n != p and n < 2^64 (scalars fit one 64-bit word) is kept.
  G: for counter = 0, 1, ...: x = int(SHA-256("cryptobench toy64 G" || counter)) mod p;
     the first x on the curve, with the even square root as y.

Output: the constants as Rust source lines (paste into src/curve.rs) and a
JSON line, both with the counters used.
"""
import hashlib
import json
import math

MR_BASES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]  # deterministic below 3.3e24


def is_prime(n):
    if n < 2:
        return False
    for q in MR_BASES:
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def h(label, counter):
    data = label.encode() + counter.to_bytes(4, "big")
    return int.from_bytes(hashlib.sha256(data).digest(), "big")


def add(P, Q, a, p):
    """Affine addition; None is the point at infinity."""
    if P is None:
        return Q
    if Q is None:
        return P
    x1, y1 = P
    x2, y2 = Q
    if x1 == x2 and (y1 + y2) % p == 0:
        return None
    if P == Q:
        lam = (3 * x1 * x1 + a) * pow(2 * y1, -1, p) % p
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (lam * lam - x1 - x2) % p
    return (x3, (lam * (x1 - x3) - y1) % p)


def mul(k, P, a, p):
    R = None
    while k:
        if k & 1:
            R = add(R, P, a, p)
        P = add(P, P, a, p)
        k >>= 1
    return R


def lift_x(x, a, b, p):
    rhs = (x * x * x + a * x + b) % p
    y = pow(rhs, (p + 1) // 4, p)
    if y * y % p != rhs:
        return None
    return (x, y if y % 2 == 0 else p - y)


def group_order(P, a, p):
    """The multiple of ord(P) in the Hasse interval, by baby-step giant-step.
    Returns None unless exactly that multiple is found."""
    lo = p + 1 - 2 * math.isqrt(p) - 2
    width = 4 * math.isqrt(p) + 4
    m = math.isqrt(width) + 1
    baby = {}
    R = None
    for j in range(m + 1):
        if R is not None:
            baby.setdefault(R[0], j)
        R = add(R, P, a, p)
    mP = mul(m, P, a, p)
    G = mul(lo, P, a, p)
    for i in range(m + 2):
        if G is None:
            return lo + i * m
        if G[0] in baby:
            j = baby[G[0]]
            for cand in (lo + i * m - j, lo + i * m + j):
                if cand > 0 and mul(cand, P, a, p) is None:
                    return cand
        G = add(G, mP, a, p)
    return None


def main():
    p = 2**64 - 1
    while not (p % 4 == 3 and is_prime(p)):
        p -= 1
    a = p - 3
    counter = 0
    while True:
        b = h("cryptobench toy64 b", counter) % p
        if (4 * a**3 + 27 * b * b) % p != 0:
            P = None
            for t in range(1000):
                P = lift_x(h("probe", t) % p, a, b, p)
                if P:
                    break
            n = group_order(P, a, p)
            if (n and n < 2**64 and is_prime(n) and n != p
                    and abs(n - (p + 1)) <= 2 * math.isqrt(p) + 1):
                break
        counter += 1
    g_counter = 0
    while True:
        G = lift_x(h("cryptobench toy64 G", g_counter) % p, a, b, p)
        if G:
            break
        g_counter += 1
    assert mul(n, G, a, p) is None
    out = {"p": p, "a": a, "b": b, "gx": G[0], "gy": G[1], "n": n,
           "b_counter": counter, "g_counter": g_counter}
    for k in ("p", "a", "b", "gx", "gy", "n"):
        print(f"pub const {k.upper()}: u64 = 0x{out[k]:016x};")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
