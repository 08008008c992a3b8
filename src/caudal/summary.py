"""Plain-data summaries of a loaded model (what ``caudal info`` prints)."""

from __future__ import annotations

from typing import Any

from caudal._core import Character, Model


def character_summary(character: Character) -> dict[str, Any]:
    """One character: its counts, height, skins, joint tree and roles."""
    rig = character.rig
    roles = rig.roles()
    role_of: dict[str, str] = {}
    for s in roles["sources"]:
        role_of.setdefault(s["joint"], s["role"])
    names = rig.joint_names
    parents = rig.parents.tolist()
    joints = [
        {"name": n, "parent": names[p] if p >= 0 else None, "role": role_of.get(n)}
        for n, p in zip(names, parents, strict=False)
    ]
    return {
        "index": character.index,
        "name": character.name,
        "joint_count": rig.joint_count,
        "vertex_count": rig.vertex_count,
        "triangle_count": int(rig.triangles.shape[0]),
        "height": rig.height,
        "skins": character.skins,
        "joints": joints,
        "roles": roles,
    }


def model_summary(model: Model) -> dict[str, Any]:
    """The file: its characters, meshes, skins, clips and reader warnings.
    A one-character file also has that character's counts, height, joints
    and roles at the top level (as before characters existed)."""
    characters = [character_summary(c) for c in model.characters]
    out: dict[str, Any] = {
        "file": model.path,
        "generator": model.generator,
        "warnings": model.warnings,
        "characters": characters,
    }
    if len(characters) == 1:
        only = characters[0]
        for key in ("joint_count", "vertex_count", "triangle_count", "height", "joints", "roles"):
            out[key] = only[key]
    out["meshes"] = model.primitives()
    out["skins"] = [
        {
            "index": s["index"],
            "name": s["name"],
            "character": s["character"],
            "joint_count": len(s["joints"]),
        }
        for s in model.skins()
    ]
    out["clips"] = [
        {
            "name": a["name"],
            "duration": a["duration"],
            "channels": a["channels"],
            "paths": a["paths"],
        }
        for a in model.animations()
    ]
    return out


def joint_tree_lines(summary: dict[str, Any]) -> list[str]:
    """The joint tree of a character summary (or a one-character model
    summary), one line per joint, indented by depth. Iterative: deep
    chains do not hit Python's recursion limit."""
    children: dict[str | None, list[dict[str, Any]]] = {}
    for j in summary["joints"]:
        children.setdefault(j["parent"], []).append(j)
    lines: list[str] = []
    stack: list[tuple[dict[str, Any], int]] = [(j, 0) for j in reversed(children.get(None, []))]
    while stack:
        j, depth = stack.pop()
        role = f"  [{j['role']}]" if j["role"] else ""
        lines.append(f"{'  ' * depth}{j['name']}{role}")
        stack.extend((c, depth + 1) for c in reversed(children.get(j["name"], [])))
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
    rows: list[tuple[str, list[str], str, str, str]] = []
    for s in roles["sources"]:
        last = rows[-1] if rows else None
        over = s.get("overruled") or ""
        if last is not None and last[0] == s["role"] and last[2:] == (s["rule"], s["detail"], over):
            last[1].append(s["joint"])
        else:
            rows.append((s["role"], [s["joint"]], s["rule"], s["detail"], over))
    width = max((len(r[0]) for r in rows), default=0)
    lines = []
    for role, joints, rule, detail, over in rows:
        why = RULE_WORDS.get(rule, rule) + (f": {detail}" if detail else "")
        # A name the structure overruled is what a TD would have expected:
        # saying so explains why `Hips` is not the pelvis.
        why += f"; overruled {over}" if over else ""
        lines.append(f"{role:<{width}}  {', '.join(joints)}  ({why})")
    return lines
