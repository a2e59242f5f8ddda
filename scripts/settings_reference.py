"""Write docs/operators/settings.md, the configuration reference, from the code that reads it.

    python scripts/settings_reference.py            # rewrite the page
    python scripts/settings_reference.py --check    # exit 1 when the page is stale

Every setting is an environment variable. Django's are read in arena/settings.py through
the env_* helpers of arena/env.py; a few process-level ones (the sandbox, gunicorn, the
worker node) are read with os.environ in workers/ and deploy/. This script reads both
with `ast`, never importing them (importing the settings would need a SECRET_KEY and
would show this machine's values instead of the defaults), and takes each variable's
description from the comment above the line that reads it. tests/docs/test_settings_reference.py
fails when the page differs from what this script writes, so a new setting reaches the
page, with its comment, in the commit that adds it.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = ROOT / "arena" / "settings.py"
PROCESS_DIRS = ("workers", "deploy")
PAGE = ROOT / "docs" / "operators" / "settings.md"

HELPERS = {
    "env_str": "text",
    "env_bool": "boolean",
    "env_int": "integer",
    "env_float": "number",
    "env_list": "comma-separated list",
    "env_choice": "one of",
    "env_rate": "rate",
}
# The settings file's first part has no `# --- Title ---` line of its own.
FIRST_SECTION = "Web, database and API"
# Stand-ins for the paths the defaults are built from, as a reader would write them.
PLACES = {"BASE_DIR": Path("<project>"), "VAR_DIR": Path("<var>")}


@dataclass(frozen=True)
class _Ref:
    """A default that is another setting's value."""

    name: str

    def __bool__(self) -> bool:
        # Its value depends on the environment: a default that branches on it is shown as
        # the code it is, not evaluated with one branch taken.
        raise TypeError(f"{self.name} depends on the environment")


@dataclass
class Variable:
    name: str
    kind: str
    default: str
    description: str
    section: str
    files: list[str] = field(default_factory=list)


def _comment_above(lines: list[str], line: int, skippable: set[int]) -> str:
    """The comment block above 1-based `line`, stepping over the lines in `skippable` (the
    rest of the statement the line belongs to: a dict entry's comment may sit above the
    dict). A blank line, or other code, ends the search."""
    index = line - 2
    while index >= 0:
        text = lines[index].strip()
        if text.startswith("#") and not text.startswith("# ---"):
            block = []
            while index >= 0 and lines[index].strip().startswith("#"):
                if lines[index].strip().startswith("# ---"):
                    break
                block.append(lines[index].strip().lstrip("#").strip())
                index -= 1
            return " ".join(reversed(block))
        if not text or (index + 1) not in skippable:
            return ""
        index -= 1
    return ""


def _docstring_sentence(node: ast.AST | None) -> str:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module):
        doc = ast.get_docstring(node) or ""
        return " ".join(doc.split("\n\n")[0].split())
    return ""


def _show(value: object) -> str:
    if isinstance(value, _Ref):
        return f"the value of `{value.name}`"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, list | tuple):
        return ", ".join(f"`{item}`" for item in value) if value else "(none)"
    if value is None:
        return "`off`"
    if value == "":
        return "(empty)"
    return f"`{value}`"


def _default(node: ast.expr | None, names: dict[str, object]) -> str:
    if node is None:
        return "(none)"
    try:
        value = eval(  # noqa: S307 - constant expressions of this repository's own code
            compile(ast.Expression(node), "<default>", "eval"),
            {"__builtins__": {"str": str, "int": int, "float": float, "Path": Path}},
            dict(names),
        )
    except Exception:  # noqa: BLE001 - anything not a constant is shown as code
        return f"`{ast.unparse(node)}`"
    if isinstance(value, Path):
        value = str(value)
    return _show(value)


def _simple_names(tree: ast.Module) -> dict[str, object]:
    """Module-level names whose value is a constant expression of earlier ones."""
    names: dict[str, object] = dict(PLACES)
    for node in tree.body:
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            call = node.value
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id in HELPERS
                and isinstance(call.args[0], ast.Constant)
            ):
                for target in node.targets:
                    assert isinstance(target, ast.Name)
                    names.setdefault(target.id, _Ref(call.args[0].value))
                continue
            try:
                value = eval(  # noqa: S307
                    compile(ast.Expression(node.value), "<name>", "eval"),
                    {"__builtins__": {"str": str, "Path": Path}},
                    dict(names),
                )
            except Exception:  # noqa: BLE001
                continue
            for target in node.targets:
                assert isinstance(target, ast.Name)
                names.setdefault(target.id, value)
    return names


def _statements(tree: ast.Module) -> list[tuple[ast.stmt, ast.AST]]:
    """Every statement with its innermost enclosing function, class or module."""
    found: list[tuple[ast.stmt, ast.AST]] = []

    def walk(body: list[ast.stmt], owner: ast.AST) -> None:
        for node in body:
            found.append((node, owner))
            inner = owner
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = node
            for name in ("body", "orelse", "finalbody", "handlers"):
                child = getattr(node, name, None)
                if isinstance(child, list) and child and isinstance(child[0], ast.AST):
                    walk([c for c in child if isinstance(c, ast.stmt)], inner)
                    for handler in child:
                        if isinstance(handler, ast.ExceptHandler):
                            walk(handler.body, inner)

    walk(tree.body, tree)
    return found


def _own_calls(statement: ast.stmt) -> list[ast.Call]:
    """Calls in the statement itself, not in statements nested in it."""
    calls: list[ast.Call] = []
    nested = {
        id(n)
        for name in ("body", "orelse", "finalbody", "handlers")
        for n in (getattr(statement, name, None) or [])
    }
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if id(child) in nested:
                continue
            if isinstance(child, ast.Call):
                calls.append(child)
            stack.append(child)
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def _section_of(lines: list[str], line: int) -> str:
    for text in reversed(lines[: line - 1]):
        stripped = text.strip()
        if stripped.startswith("# ---"):
            return stripped.strip("# -").strip()
    return FIRST_SECTION


def django_settings(path: Path = SETTINGS) -> list[Variable]:
    source = path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source)
    names = _simple_names(tree)
    found: list[Variable] = []
    for statement, _owner in _statements(tree):
        span = set(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
        for call in _own_calls(statement):
            if not (isinstance(call.func, ast.Name) and call.func.id in HELPERS):
                continue
            if not (call.args and isinstance(call.args[0], ast.Constant)):
                continue
            helper = call.func.id
            kind = HELPERS[helper]
            keywords = {k.arg: k.value for k in call.keywords}
            if "minimum" in keywords:
                kind += f", at least {ast.literal_eval(keywords['minimum'])}"
            if helper == "env_choice" and len(call.args) > 2:
                kind += " " + ", ".join(f"`{c}`" for c in ast.literal_eval(call.args[2]))
            if helper == "env_rate":
                kind += " (`N/s`, `/min`, `/hour`, `/day`, or `off`)"
            comment = _comment_above(lines, call.lineno, span)
            if not comment and isinstance(statement, ast.If):
                # `if env_bool(...):` explains itself in the first line of its body.
                comment = _comment_above(lines, statement.body[0].lineno + 1, set())
            found.append(
                Variable(
                    name=call.args[0].value,
                    kind=kind,
                    default=_default(call.args[1] if len(call.args) > 1 else None, names),
                    description=comment,
                    section=_section_of(lines, call.lineno),
                    files=[str(path.relative_to(ROOT))],
                )
            )
    return found


def _environ_read(call: ast.Call) -> str | None:
    """'get' or 'setdefault' for os.environ.get(...) / os.environ.setdefault(...)."""
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr in {"get", "setdefault"}
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "environ"
        and isinstance(func.value.value, ast.Name)
        and func.value.value.id == "os"
    ):
        return func.attr
    return None


def process_settings(known: set[str]) -> tuple[list[Variable], list[Variable]]:
    """Variables read with os.environ in workers/ and deploy/ (not Django settings), and
    the Django settings a process gives its own default before the settings are read."""
    reads: dict[str, Variable] = {}
    defaults: list[Variable] = []
    written: set[str] = set()
    files = sorted(p for d in PROCESS_DIRS for p in (ROOT / d).rglob("*.py"))
    parsed = [(p, p.read_text(), ast.parse(p.read_text())) for p in files]
    for _path, _source, tree in parsed:
        for node in ast.walk(tree):
            # Variables the code sets for itself (a node's name for its children) are not
            # an operator's to set.
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
                target = node.targets[0]
                if isinstance(target.value, ast.Attribute) and target.value.attr == "environ":
                    key = target.slice
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        written.add(key.value)
    for path, source, tree in parsed:
        lines = source.splitlines()
        constants = {
            t.id: (n.value.value, n.lineno)
            for n in tree.body
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
            for t in n.targets
            if isinstance(t, ast.Name) and isinstance(n.value.value, str)
        }
        relative = str(path.relative_to(ROOT))
        for statement, owner in _statements(tree):
            span = set(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
            for call in _own_calls(statement):
                how = _environ_read(call)
                if how is None or not call.args:
                    continue
                first = call.args[0]
                comment = ""
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    name = first.value
                elif isinstance(first, ast.Name) and first.id in constants:
                    name, defined = constants[first.id]
                    comment = _comment_above(lines, defined, set())
                else:
                    continue
                if name in written or name.startswith(("DJANGO_", "PYTHON")):
                    continue
                # Sibling setdefault lines share the comment above the first of them.
                siblings = span
                if how == "setdefault":
                    siblings = span | {
                        n for n, text in enumerate(lines, 1) if "os.environ.setdefault" in text
                    }
                comment = comment or _comment_above(lines, call.lineno, siblings)
                if not comment and owner is not tree:
                    comment = _docstring_sentence(owner)
                default = _default(call.args[1] if len(call.args) > 1 else None, {})
                if how == "setdefault":
                    if name in known:
                        defaults.append(Variable(name, "", default, comment, "", [relative]))
                    continue
                if name in known:
                    continue
                if name in reads:
                    if relative not in reads[name].files:
                        reads[name].files.append(relative)
                    reads[name].description = reads[name].description or comment
                    continue
                reads[name] = Variable(name, "", default, comment, "", [relative])
    for unit in sorted((ROOT / "deploy" / "systemd").glob("*.service")):
        for variable in unit_settings(unit):
            if variable.name not in known and variable.name not in reads:
                reads[variable.name] = variable
    return sorted(reads.values(), key=lambda v: v.name), defaults


def unit_settings(unit: Path) -> list[Variable]:
    """`Environment=NAME=value` lines of a systemd unit: variables the unit itself uses
    (on its command line), described by the unit's comment lines from where they name it."""
    lines = unit.read_text().splitlines()
    found = []
    for text in lines:
        if not text.startswith("Environment="):
            continue
        name, _, value = text.removeprefix("Environment=").partition("=")
        if name.startswith("DJANGO_"):
            continue
        comment: list[str] = []
        for other in lines:
            if other.startswith("#") and (comment or name in other):
                words = other.lstrip("#").strip()
                comment.append(words[words.index(name) :] if not comment else words)
            elif comment:
                break
        found.append(
            Variable(name, "", _show(value), " ".join(comment), "", [str(unit.relative_to(ROOT))])
        )
    return found


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render() -> str:
    django = django_settings()
    known = {v.name for v in django}
    process, defaults = process_settings(known)
    out = [
        "# Configuration reference",
        "",
        "<!-- Generated by scripts/settings_reference.py from arena/settings.py, workers/ and",
        "deploy/. Do not edit: change the comment above the setting in the code, then run",
        "`python scripts/settings_reference.py`. -->",
        "",
        "Every setting is an environment variable. The web server, the workers and beat read",
        "the same ones, so give every process of a deployment the same environment",
        "(`deploy/env.example` is a starting point; the systemd units read",
        "`/etc/moon-arena/env`). A value that does not parse stops the process at start-up",
        "with the variable's name and what it expected. `<project>` is the checkout and",
        "`<var>` is `ARENA_VAR_DIR`.",
        "",
        "This page is generated from the code that reads the settings",
        "(`python scripts/settings_reference.py`); a test fails when it is out of date.",
        "",
    ]
    sections: dict[str, list[Variable]] = {}
    for variable in django:
        sections.setdefault(variable.section, []).append(variable)
    for title, variables in sections.items():
        out += [f"## {title}", "", "| variable | default | type | what it does |"]
        out.append("|---|---|---|---|")
        for v in variables:
            out.append(
                f"| `{v.name}` | {_cell(v.default)} | {_cell(v.kind)} | {_cell(v.description)} |"
            )
        out.append("")
    out += [
        "## Read by the worker and web processes",
        "",
        "These are read outside the Django settings, by the process (or the systemd unit)",
        "that needs them.",
        "",
        "| variable | default | read in | what it does |",
        "|---|---|---|---|",
    ]
    for v in process:
        where = ", ".join(f"`{f}`" for f in v.files)
        out.append(f"| `{v.name}` | {_cell(v.default)} | {where} | {_cell(v.description)} |")
    out += [
        "",
        "## Defaults a process sets for itself",
        "",
        "Before the settings are read, these processes give a setting above their own",
        "default; a value in the environment still wins.",
        "",
        "| variable | default there | set in | why |",
        "|---|---|---|---|",
    ]
    for v in defaults:
        out.append(f"| `{v.name}` | {_cell(v.default)} | `{v.files[0]}` | {_cell(v.description)} |")
    out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the page is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not PAGE.is_file() or PAGE.read_text() != text:
            print(f"{PAGE.relative_to(ROOT)} is stale: run python scripts/settings_reference.py")
            return 1
        return 0
    PAGE.write_text(text)
    print(f"wrote {PAGE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
