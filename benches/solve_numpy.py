#!/usr/bin/env python3
"""The rigid surface solve of src/solve in plain numpy, run by benches/solve.rs
on the very same constraint sets and surfaces, for a side-by-side timing.

Same algorithm, step for step: centred bind-space constraint points, per-bone
pair moments G_jk (4x4), per-frame target moments Y_j, the affine seed
(ridge towards the warm start, projected onto rotations by Horn), then
Gauss-Seidel sweeps of Horn fits (4x4 symmetric eigenproblem: numpy's eigh,
i.e. LAPACK, exact like the Rust Jacobi) over the active bones in topological
order, with the same proximal pull, exits and best-iterate rule. Quality is
measured on the full mesh by linear blend skinning with the solved skinning
matrices (the Rust side goes through local transforms and FK; same numbers
to f32 rounding).

Usage: solve_numpy.py CASE_DIR [REPEATS] [CLIPS]  -> prints JSON
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

PROGRESS = 1e-9
FLOOR = 1e-7
PROXIMAL = 1e-9
RIDGE = 1e-7
MAX_SWEEPS = 200


def horn(h):
    s = h.T  # Horn's S_ab = sum p_a q_b
    sxx, sxy, sxz = s[0]
    syx, syy, syz = s[1]
    szx, szy, szz = s[2]
    n = np.array(
        [
            [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
            [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
            [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
            [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
        ]
    )
    w, v = np.linalg.eigh(n)
    q0, qx, qy, qz = v[:, 3]
    return np.array(
        [
            [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - q0 * qz), 2 * (qx * qz + q0 * qy)],
            [2 * (qx * qy + q0 * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - q0 * qx)],
            [2 * (qx * qz - q0 * qy), 2 * (qy * qz + q0 * qx), 1 - 2 * (qx * qx + qy * qy)],
        ]
    )


def block_energy(mm, gj, c):
    """One bone's share of the energy with its neighbours held: tr(M G M^T) - 2 <M, C>."""
    return float(((mm @ gj) * mm).sum() - 2 * (mm * c).sum())


def solve_clip(rest, wd_full, cons, order, surfaces, diag):
    """surfaces: (F, N, 3) float32 -> (M per frame (F, B, 3, 4) centred, centre)."""
    n_frames = surfaces.shape[0]
    b = wd_full.shape[1]
    v = rest[cons].astype(np.float64)
    centre = v.mean(axis=0)
    pts = np.concatenate([v - centre, np.ones((len(cons), 1))], axis=1)  # C x 4
    wd = wd_full[cons]  # C x B
    outer = pts[:, :, None] * pts[:, None, :]  # C x 4 x 4
    g = np.einsum("cj,ck,cab->jkab", wd, wd, outer, optimize=True)  # B x B x 4 x 4
    active = g[np.arange(b), np.arange(b), 3, 3] > 0
    order = [j for j in order if active[j]]
    neighbours = {j: [k for k in range(b) if k != j and g[j, k, 3, 3] > 0] for j in order}
    act = np.flatnonzero(active)
    gf = g[np.ix_(act, act)].transpose(0, 2, 1, 3).reshape(4 * len(act), 4 * len(act))
    d = np.diag(gf).copy()
    ridge = RIDGE * np.maximum(d, 1e-12 * d.max())
    ginv = np.linalg.inv(gf + np.diag(ridge))
    n_c = len(cons)

    def energy(m, y):
        s = np.einsum("cj,jab,cb->ca", wd, m, pts, optimize=True)
        return float(((s - y) ** 2).sum())

    m = np.zeros((b, 3, 4))
    m[:, :, :3] = np.eye(3)
    out = np.zeros((n_frames, b, 3, 4))
    for f in range(n_frames):
        y = surfaces[f, cons].astype(np.float64) - centre
        ym = np.einsum("cj,ca,cb->jab", wd, y, pts, optimize=True)
        e = energy(m, y)
        # affine seed
        rhs = ym[act].transpose(0, 2, 1).reshape(-1, 3) + ridge[:, None] * m[act].transpose(
            0, 2, 1
        ).reshape(-1, 3)
        x = (ginv @ rhs).reshape(len(act), 4, 3).transpose(0, 2, 1)
        cand = m.copy()
        for bi, j in enumerate(act):
            lin, t = x[bi][:, :3], x[bi][:, 3]
            r = horn(lin)
            cen = g[j, j, :3, 3] / g[j, j, 3, 3]
            cand[j, :, :3] = r
            cand[j, :, 3] = lin @ cen + t - r @ cen
        ec = energy(cand, y)
        if ec < e:
            m, e = cand, ec
        best = (e, m.copy())

        def rms(e_: float) -> float:
            return float(np.sqrt(max(e_, 0.0) / n_c))

        for _ in range(MAX_SWEEPS):
            if rms(e) <= FLOOR * diag:
                break
            delta = 0.0
            for j in order:
                c = ym[j].copy()
                for k in neighbours[j]:
                    c -= m[k] @ g[k, j]
                gj = g[j, j]
                a = gj[3, 3]
                mv = gj[:3, 3]
                spread = max(np.trace(gj[:3, :3]) - mv @ mv / a, 0.0)
                h = c[:, :3] - np.outer(c[:, 3], mv) / a + m[j][:, :3] * (PROXIMAL * spread)
                r = horn(h)
                t = (c[:, 3] - r @ mv) / a
                new = np.concatenate([r, t[:, None]], axis=1)
                delta += block_energy(new, gj, c) - block_energy(m[j], gj, c)
                m[j] = new
            e_new = e + delta
            if e_new < best[0]:
                best = (e_new, m.copy())
            progress = rms(e) - rms(e_new)
            e = e_new
            if progress < PROGRESS * diag:
                break
        m = best[1]
        out[f] = m
    return out, centre, active


def quality(rest, wd_full, out, centre, surfaces, diag):
    pts = np.concatenate([rest - centre, np.ones((len(rest), 1))], axis=1)
    s = np.einsum("nj,fjab,nb->fna", wd_full, out, pts, optimize=True) + centre
    err = np.linalg.norm(s - surfaces, axis=2)
    den = np.linalg.norm(surfaces - rest[None], axis=2).sum()
    return 1 - err.sum() / den, err.mean() / diag


def main():
    case = Path(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    meta = json.loads((case / "meta.json").read_text())
    n, b, frames, clips = meta["vertices"], meta["bones"], meta["frames"], meta["clips"]
    use = min(int(sys.argv[3]), clips) if len(sys.argv) > 3 else clips
    diag = meta["diagonal"]
    rest = np.fromfile(case / "rest.f32", np.float32).reshape(n, 3).astype(np.float64)
    offsets = np.fromfile(case / "offsets.u32", np.uint32)
    joints = np.fromfile(case / "joints.u32", np.uint32)
    weights = np.fromfile(case / "weights.f32", np.float32)
    cons = np.fromfile(case / "constraints.u32", np.uint32).astype(np.int64)
    order = np.fromfile(case / "order.u32", np.uint32).tolist()
    surfaces = np.fromfile(case / "surfaces.f32", np.float32).reshape(clips, frames, n, 3)
    rows = np.repeat(np.arange(n), np.diff(offsets))
    wd_full = np.zeros((n, b))
    np.add.at(wd_full, (rows, joints), weights.astype(np.float64))
    times, cpu = [], []
    qmin, mean_max = 1.0, 0.0
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        for c in range(use):
            out, centre, _ = solve_clip(rest, wd_full, cons, order, surfaces[c], diag)
            q, mean = quality(rest, wd_full, out, centre, surfaces[c].astype(np.float64), diag)
            qmin, mean_max = min(qmin, q), max(mean_max, mean)
        times.append((time.perf_counter() - t0) / use)
        cpu.append((time.process_time() - c0) / use)
    times.sort()
    cpu.sort()
    print(
        json.dumps(
            {
                "ms_per_clip": times[len(times) // 2] * 1e3,
                "cpu_ms_per_clip": cpu[len(cpu) // 2] * 1e3,
                "min_quality": qmin,
                "max_mean_error": mean_max,
            }
        )
    )


if __name__ == "__main__":
    main()
