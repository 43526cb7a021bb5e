"""The docs hold together: every relative link resolves, and the README stays short.

Checked files: `README.md`, `docs/*.md`, `bench/README.md` and
`tests/corpus/rounds/README.md`. A link is `[text](target)` (or an image, or a
`[label]: target` definition) outside fenced code blocks and inline code; a target
with a scheme (`https:`, `mailto:`) is not ours to check. The path part must name a
file or folder inside the repository, relative to the file holding the link; an
`#anchor` into a Markdown file must be one of its headings, slugged as GitHub does
(lower case, punctuation dropped, spaces to hyphens, `-1`, `-2` for repeats).

The README is the first ten minutes (issue 21): at most `README_MAX_LINES` lines.
The architecture page's where-to-find table points each behaviour at one or two
files, and names the behaviours the issue asks a newcomer to find.

Each rule proves on planted files that it can fail, as `test_layers` does.
"""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass
from urllib.parse import unquote

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
README_MAX_LINES = 300
FIND_TABLE = ("docs/architecture.md", "## Where to find it")
MAX_FILES_PER_BEHAVIOUR = 2
MUST_FIND = (
    "撤销",
    "a task reminder's send time",
    "how a WxPusher result is classified",
    "where 收到 stops a nag",
    "the weekly review's suggestion",
    "a replayed mini-program `action_id`",
)
"""Behaviours issue 21 asks to be found in at most two files from the table."""

_FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
_INLINE = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]*)(?:\s+\"[^\"]*\")?\)")
_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(?P<target>\S+)", re.MULTILINE)
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(?P<title>.*?)\s*#*\s*$", re.MULTILINE)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True, slots=True, order=True)
class Link:
    line: int
    target: str


def doc_files(root: pathlib.Path = ROOT) -> list[pathlib.Path]:
    named = [root / "README.md", root / "bench/README.md", root / "tests/corpus/rounds/README.md"]
    return named + sorted((root / "docs").glob("*.md"))


def _blank(match: re.Match[str]) -> str:
    """Code is not prose: blank it out, keeping the newlines so line numbers hold."""
    return re.sub(r"[^\n]", " ", match.group(0))


def prose(text: str) -> str:
    return _CODE_SPAN.sub(_blank, _FENCE.sub(_blank, text))


def links(text: str) -> list[Link]:
    """Every link target in the text's prose, with the line it starts on."""
    plain = prose(text)
    found = [*_INLINE.finditer(plain), *_DEFINITION.finditer(plain)]
    return sorted(Link(plain.count("\n", 0, m.start()) + 1, m.group("target")) for m in found)


def slug(title: str) -> str:
    """GitHub's anchor for a heading: link syntax and punctuation dropped, lower case."""
    title = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", title)
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for match in _HEADING.finditer(_FENCE.sub(_blank, text)):
        base = slug(match.group("title"))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def _problem(source: pathlib.Path, target: str, root: pathlib.Path) -> str | None:
    path_part, _, anchor = target.partition("#")
    path = (source.parent / unquote(path_part)).resolve() if path_part else source
    if root.resolve() not in (path, *path.parents):
        return "points outside the repository"
    if not path.exists():
        return "no such file"
    if anchor and path.suffix == ".md" and anchor not in anchors(path.read_text()):
        return f"no heading #{anchor} in {path.name}"
    return None


def broken_links(files: list[pathlib.Path], root: pathlib.Path = ROOT) -> list[str]:
    """One line per link that does not resolve: file, line, target and why."""
    found = []
    for source in files:
        for link in links(source.read_text(encoding="utf-8")):
            if _SCHEME.match(link.target) or not link.target:
                continue
            problem = _problem(source, link.target, root)
            if problem:
                where = source.relative_to(root)
                found.append(f"{where}:{link.line}: ({link.target}) {problem}")
    return found


def find_table(text: str, heading: str = FIND_TABLE[1]) -> dict[str, list[str]]:
    """The where-to-find table's rows: behaviour -> the files its row links to."""
    section = text[text.index(heading) :].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]
    table = {}
    for row in rows:
        behaviour, where = (cell.strip() for cell in row.strip("|").split("|", 1))
        targets = [m.group("target") for m in _INLINE.finditer(where)]
        table[behaviour] = list(dict.fromkeys(t.partition("#")[0] for t in targets))
    return table


def too_many_files(table: dict[str, list[str]]) -> list[str]:
    return [
        f"{behaviour}: {len(files)} files"
        for behaviour, files in table.items()
        if not 1 <= len(files) <= MAX_FILES_PER_BEHAVIOUR
    ]


def test_every_relative_link_in_the_docs_resolves() -> None:
    files = doc_files()
    assert all(f.is_file() for f in files)
    found = broken_links(files)
    assert not found, "broken links:\n" + "\n".join(found)


def test_the_readme_is_read_in_ten_minutes() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES


def test_the_where_to_find_table_points_each_behaviour_at_one_or_two_files() -> None:
    table = find_table((ROOT / FIND_TABLE[0]).read_text(encoding="utf-8"))
    assert len(table) >= len(MUST_FIND)
    assert too_many_files(table) == []
    for behaviour in MUST_FIND:
        assert [row for row in table if behaviour in row], f"no row for {behaviour}"


PLANTED_HEADINGS = "# Top\n\n## Real heading\n\n## Real heading\n\n```\n# not a heading\n```\n"


@pytest.mark.parametrize(
    ("text", "resolves"),
    [
        ("[a](docs/page.md)", True),
        ("[a](docs/page.md#real-heading)", True),
        ("[a](docs/page.md#real-heading-1)", True),
        ("[a](docs/)", True),
        ("see [a](#top) here", True),
        ("[a](https://example.com/missing.md)", True),
        ("```\n[a](missing.md)\n```", True),
        ("`[a](missing.md)`", True),
        ("[a](missing.md)", False),
        ("[a](docs/missing.md#real-heading)", False),
        ("[a](docs/page.md#no-such-heading)", False),
        ("[a](docs/page.md#not-a-heading)", False),
        ("[two\nlines](missing.md)", False),
        ("![image](missing.png)", False),
        ("[label]: missing.md", False),
        ("[a](../outside.md)", False),
    ],
)
def test_the_link_check_catches_a_planted_broken_link(
    tmp_path: pathlib.Path, text: str, resolves: bool
) -> None:
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "page.md").write_text(PLANTED_HEADINGS)
    (tmp_path / "outside.md").write_text("# Outside\n")
    readme = root / "README.md"
    readme.write_text(f"# Top\n\nSome prose.\n{text}\n")
    found = broken_links([readme], root)
    if resolves:
        assert found == []
    else:
        assert len(found) == 1
        assert found[0].startswith("README.md:4: ")


def test_the_table_check_catches_a_row_with_three_files_or_none() -> None:
    text = (
        "## Where to find it\n\n| behaviour | where |\n|---|---|\n"
        "| fine | [`a.py`](a.py), [`b.py`](b.py#L3), [`b.py`](b.py) |\n"
        "| spread | [`a.py`](a.py), [`b.py`](b.py), [`c.py`](c.py) |\n"
        "| nowhere | `a.py` |\n\n## Next\n\n| x | [y](y.py) |\n"
    )
    assert too_many_files(find_table(text)) == ["spread: 3 files", "nowhere: 0 files"]


def test_slugs_follow_githubs_rule() -> None:
    assert slug("Parsing (`bench/parse.py`)") == "parsing-benchparsepy"
    assert slug("How a reminder can end, and what you are told") == (
        "how-a-reminder-can-end-and-what-you-are-told"
    )
    assert slug("Where the time went (issue 11)") == "where-the-time-went-issue-11"
    assert slug("See [the page](x.md) now") == "see-the-page-now"
