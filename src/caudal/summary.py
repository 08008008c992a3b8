"""Plain-data summaries of a loaded model (what ``caudal info`` prints)."""

from __future__ import annotations

from typing import Any

from caudal._core import Model


def model_summary(model: Model) -> dict[str, Any]:
    rig = model.rig
    roles = rig.roles()
    role_of: dict[str, str] = {}
    for s in roles["sources"]:
        role_of.setdefault(s["joint"], s["role"])
    names = rig.joint_names
    parents = rig.parents.tolist()
    joints = [
        {"name": n, "parent": names[p] if p >= 0 else None, "role": role_of.get(n)}
        for n, p in zip(names, parents)
    ]
    return {
        "file": model.path,
        "generator": model.generator,
        "joint_count": rig.joint_count,
        "vertex_count": rig.vertex_count,
        "triangle_count": int(rig.triangles.shape[0]),
        "height": rig.height,
        "joints": joints,
        "roles": roles,
        "meshes": model.primitives(),
        "skins": [{"index": s["index"], "name": s["name"], "joint_count": len(s["joints"])} for s in model.skins()],
        "clips": [
            {"name": a["name"], "duration": a["duration"], "channels": a["channels"], "paths": a["paths"]}
            for a in model.animations()
        ],
    }


def joint_tree_lines(summary: dict[str, Any]) -> list[str]:
    children: dict[str | None, list[dict[str, Any]]] = {}
    for j in summary["joints"]:
        children.setdefault(j["parent"], []).append(j)
    lines: list[str] = []

    def walk(parent: str | None, depth: int) -> None:
        for j in children.get(parent, []):
            role = f"  [{j['role']}]" if j["role"] else ""
            lines.append(f"{'  ' * depth}{j['name']}{role}")
            walk(j["name"], depth + 1)

    walk(None, 0)
    return lines


RULE_WORDS = {
    "name": "by name",
    "topology": "by the skeleton's shape",
    "override": "as you set it",
}
"""How each rule of ``Rig.roles()`` reads in a sentence."""


def role_lines(roles: dict[str, Any]) -> list[str]:
    """One line per role: its joint(s) and the rule that found them, in the
    order the roles were found (joints of one role and rule share a line)."""
    rows: list[tuple[str, list[str], str, str]] = []
    for s in roles["sources"]:
        last = rows[-1] if rows else None
        if last is not None and last[0] == s["role"] and last[2] == s["rule"] and last[3] == s["detail"]:
            last[1].append(s["joint"])
        else:
            rows.append((s["role"], [s["joint"]], s["rule"], s["detail"]))
    width = max((len(r[0]) for r in rows), default=0)
    lines = []
    for role, joints, rule, detail in rows:
        why = RULE_WORDS.get(rule, rule) + (f": {detail}" if detail else "")
        lines.append(f"{role:<{width}}  {', '.join(joints)}  ({why})")
    return lines

