"""The bot's voice lives in one place: a test that fails on a Chinese literal elsewhere.

Every module of the five packages (`bot`, `handlers`, `services`, `scheduler`,
`storage`) is parsed with `ast` (nothing is imported), and every string literal in it,
the pieces of an f-string included, is checked for CJK characters: Han ideographs
and the CJK and full-width punctuation Chinese is written with (`，`, `。`, `「」`,
`（）`, `、`). Comments are not literals, so they never count. A sentence the bot
says, a word it shows, and a word it reads outside the parser all have a named home;
everyone else refers to them by name.

Exempt, and why (nothing else is):

- `handlers/texts/`: the bot's voice, one module per feature: what it answers in the
  chat, its views, help and errors, and what its edges show (the pages, the
  mini-program API, the demo, the doctor, the app menu). The few words it reads
  outside the parser sit next to the question they answer (`是` in `confirm`, the
  done-words of a nag in `nag`).
- `scheduler/core/texts/`: the other half of the voice, what keeper sends on its own
  (reminders, digests, the weekly review, nags, cards, admin alerts, the channels'
  and rule kinds' names). The scheduler engine and the services compose these and
  may not import `handlers` (`tests/unit/test_layers.py`), so these words live at
  the bottom, in the pure core, and `handlers/texts/` reuses them.
- the parser's word modules, `handlers/parse/lexicon.py` (the shared word tables)
  and `handlers/parse/patterns.py` (one reader's words, and the sources of the
  regular expressions written in them): the language the parser reads, not sentences
  the bot says. The readers of `handlers/parse/` import their words from these two
  by name, as everyone else does from the texts packages (issue 21).
- `bot/sandbox/`: the fakes of WeCom, WxPusher and Server酱 answer in the providers'
  own words (their errmsgs), as the real services do.
- docstrings: a string that stands alone as a statement (a module's, class's or
  function's docstring, or the one under an attribute) is documentation; it never
  reaches anyone.

`handlers/texts/__init__.py` re-exports every module of the package, so callers
write `texts.X` for any sentence: a second check fails when two of its modules
define the same name (the later one would silently win) or a module is left out.

Each check proves on planted files that it can fail, as `test_layers` does.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "handlers", "services", "scheduler", "storage")
PARSER_WORDS = ("handlers/parse/lexicon.py", "handlers/parse/patterns.py")
"""The parser's word modules: its readers import every word they match from these."""
EXEMPT = ("handlers/texts/", "scheduler/core/texts/", "bot/sandbox/")
"""Folders whose literals may be Chinese (see the module docstring for why)."""
TEXTS = ROOT / "handlers" / "texts"

CJK = re.compile(
    "["
    "\u3000-\u303f"  # CJK symbols and punctuation: 、。「」
    "\u3040-\u30ff"  # kana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff00-\uffef"  # full-width forms: ，（）：？
    "\U00020000-\U0003134f"  # CJK extensions B to G
    "]"
)


def exempt(relative: str) -> bool:
    return relative.startswith(EXEMPT) or relative in PARSER_WORDS


def our_files(root: pathlib.Path = ROOT) -> list[pathlib.Path]:
    return sorted(p for pkg in PACKAGES for p in (root / pkg).rglob("*.py"))


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of every string constant that is a statement on its own."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def chinese_literals(files: list[pathlib.Path], root: pathlib.Path = ROOT) -> list[str]:
    """One line per Chinese string literal outside the exempt folders and docstrings."""
    found = []
    for path in files:
        relative = path.relative_to(root).as_posix()
        if exempt(relative):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = docstrings(tree)
        found += [
            f"{relative}:{node.lineno}: {node.value!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            and CJK.search(node.value)
        ]
    return found


def defined_names(path: pathlib.Path) -> set[str]:
    """The public names a module defines at its top level (imports left out)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_")}


def reexport_problems(package: pathlib.Path) -> list[str]:
    """Names defined by two modules of the package, and modules its `__init__` does
    not re-export with `from <package>.<module> import *`."""
    modules = sorted(p for p in package.glob("*.py") if p.name != "__init__.py")
    owner: dict[str, str] = {}
    problems = []
    for module in modules:
        for name in sorted(defined_names(module)):
            if name in owner:
                problems.append(f"{name}: defined in {owner[name]} and {module.name}")
            owner.setdefault(name, module.name)
    init = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    starred = {
        node.module.rpartition(".")[2]
        for node in init.body
        if isinstance(node, ast.ImportFrom) and node.module and node.names[0].name == "*"
    }
    problems += [f"{m.name}: not re-exported" for m in modules if m.stem not in starred]
    return problems


def test_no_chinese_literal_outside_the_voice() -> None:
    found = chinese_literals(our_files())
    assert not found, "Chinese literals outside the texts packages:\n" + "\n".join(found)


def test_the_exempt_folders_exist_and_hold_the_voice() -> None:
    for folder in EXEMPT:
        files = list((ROOT / folder).rglob("*.py"))
        assert files, f"{folder} is gone: its exemption exempts nothing"
    for module in PARSER_WORDS:
        assert (ROOT / module).is_file(), f"{module} is gone: its exemption exempts nothing"
    assert len(list(TEXTS.glob("*.py"))) > 10, "handlers/texts/ is not one module per feature"


def test_every_sentence_in_handlers_texts_has_one_name() -> None:
    problems = reexport_problems(TEXTS)
    assert not problems, "handlers/texts/:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("file", "source", "allowed"),
    [
        ("handlers/x.py", 'REPLY = "记下了"\n', False),
        ("handlers/x.py", 'def f(n: int) -> str:\n    return f"还有 {n} 项"\n', False),
        ("handlers/x.py", 'SEPARATOR = "，"\n', False),  # punctuation is voice too
        ("services/x.py", 'LABEL = "晨报"\n', False),
        ("scheduler/x.py", 'NOTE = f"no {1} Server酱 key"\n', False),
        ("storage/x.py", 'COLUMNS = (("number", "short number in 提醒"),)\n', False),
        ("bot/web/x.py", 'TITLE = "链接无效"\n', False),
        ("scheduler/core/x.py", 'WORDS = {"up": "上升"}\n', False),
        ("handlers/x.py", '"""记体重: the handler."""\n', True),
        ("handlers/x.py", 'def f() -> None:\n    """`收到` stops a nag."""\n', True),
        ("handlers/x.py", 'class C:\n    """管理 状态."""\n', True),
        ("handlers/x.py", 'LIMIT = 3\n"""At most 3 (`还有 N 项` after)."""\n', True),
        ("handlers/x.py", "LIMIT = 3  # 还有 N 项\n", True),
        ("handlers/x.py", 'REPLY = "ok: 72.4 kg · 💧"\n', True),
        ("handlers/texts/x.py", 'REPLY = "记下了"\n', True),
        ("scheduler/core/texts/x.py", 'HEAD = "早上好"\n', True),
        ("handlers/parse/lexicon.py", 'DONE = ("完成",)\n', True),
        ("handlers/parse/patterns.py", 'UNDO_PATTERN = r"撤(?:回|销)"\n', True),
        ("handlers/parse/numbers.py", '_PAST = ("刚才", "昨天")\n', False),  # a reader
        ("handlers/parse/review.py", 'def f(t: str) -> bool:\n    return t == "帮助"\n', False),
        ("handlers/parse/x.py", '_X = re.compile(r"(?:今|明)天")\n', False),
        ("handlers/parse/lexicon/x.py", 'DONE = ("完成",)\n', False),  # the file, not a prefix
        ("handlers/parse/patterns.pyx.py", 'DONE = ("完成",)\n', False),
        ("bot/sandbox/fake_x.py", 'ERRMSG = "参数错误"\n', True),
        ("handlers/textsx.py", 'REPLY = "记下了"\n', False),  # the folder, not a prefix
    ],
)
def test_the_check_catches_a_chinese_literal(
    tmp_path: pathlib.Path, file: str, source: str, allowed: bool
) -> None:
    path = tmp_path / file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    found = chinese_literals([path], tmp_path)
    if allowed:
        assert found == []
    else:
        assert found, f"{file} not caught"
        assert all(line.startswith(f"{file}:") for line in found)


@pytest.mark.parametrize(
    ("modules", "init", "problem"),
    [
        ({"a": 'X = "一"\n', "b": 'Y = "二"\n'}, ("a", "b"), None),
        ({"a": 'X = "一"\n', "b": 'X = "二"\n'}, ("a", "b"), "X: defined in a.py and b.py"),
        ({"a": "def f() -> str: ...\n", "b": "f = 1\n"}, ("a", "b"), "f: defined in a.py and b.py"),
        ({"a": '_X = "一"\n', "b": '_X = "二"\n'}, ("a", "b"), None),  # private: not exported
        ({"a": "from b import X\n", "b": 'X = "二"\n'}, ("a", "b"), None),  # a reuse
        ({"a": 'X = "一"\n', "b": 'Y = "二"\n'}, ("a",), "b.py: not re-exported"),
    ],
)
def test_the_name_check_catches_a_clash_or_a_module_left_out(
    tmp_path: pathlib.Path, modules: dict[str, str], init: tuple[str, ...], problem: str | None
) -> None:
    package = tmp_path / "texts"
    package.mkdir()
    for name, source in modules.items():
        (package / f"{name}.py").write_text(source, encoding="utf-8")
    lines = "".join(f"from texts.{m} import *\n" for m in init)
    (package / "__init__.py").write_text(lines, encoding="utf-8")
    assert reexport_problems(package) == ([] if problem is None else [problem])
