"""The README stays a short front page, and every documentation page can be found from it.

README.md opens with the two commands (its length: tests/test_layers.py) and links every page of
docs/ (docs/index.md is the Sphinx root, reached from any page); each relative link in README.md and
in the docs pages names a file that exists; the tutorials page lists every notebook. The pages
themselves are built by ``make docs`` (Sphinx, zero warnings), which ``make test`` runs.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+).+?\1", re.S)
INLINE_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)


def link_targets(text: str) -> list[str]:
    """Targets of the Markdown links of ``text``, code blocks and code spans left out."""
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    return INLINE_LINK.findall(prose) + REF_DEFINITION.findall(prose)


def is_relative(target: str) -> bool:
    return not (target.startswith("#") or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target))


def local_files(page: Path) -> dict[str, Path]:
    """Each relative link of a Markdown file -> the file it names (anchor removed)."""
    out = {}
    for target in link_targets(page.read_text(encoding="utf-8")):
        if is_relative(target):
            path = target.split("#", 1)[0]
            out[target] = (page.parent / path).resolve()
    return out


DOC_PAGES = sorted(p for p in DOCS.glob("*.md") if p.name != "index.md")


def test_link_parser_sees_links_and_skips_code():
    text = ("See [the API](docs/api.md#launch) and [GPU][g].\n\n[g]: docs/gpu.md\n"
            "`k[grid, block](args)` is code.\n```python\nadd[1, 64](x, y)\n```\n"
            "[web](https://example.org) [here](#top)\n")
    targets = link_targets(text)
    assert targets == ["docs/api.md#launch", "https://example.org", "#top", "docs/gpu.md"]
    assert [t for t in targets if is_relative(t)] == ["docs/api.md#launch", "docs/gpu.md"]


def test_readme_opens_with_the_two_commands():
    block = FENCE.search(README.read_text(encoding="utf-8"))
    assert block is not None, "README.md has no code block"
    lines = [ln for ln in block.group(0).splitlines()[1:-1] if ln.strip()]
    assert [ln.split()[:2] for ln in lines[:2]] == [["make", "lab"], ["make", "test"]], lines


def test_there_are_docs_pages():
    assert (DOCS / "index.md").is_file() and len(DOC_PAGES) >= 5, DOC_PAGES


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: p.name)
def test_readme_links_every_docs_page(page):
    linked = set(local_files(README).values())
    assert page.resolve() in linked, (
        f"README.md does not link docs/{page.name}: add [title](docs/{page.name})")


@pytest.mark.parametrize("page", [README, *DOC_PAGES], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_name_existing_files(page):
    missing = [t for t, path in local_files(page).items() if not path.exists()]
    assert not missing, f"{page.relative_to(ROOT)} links files that do not exist: {missing}"


def test_tutorials_page_lists_every_notebook():
    linked = set(local_files(DOCS / "tutorials.md").values())
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks
    missing = [nb.name for nb in notebooks if nb.resolve() not in linked]
    assert not missing, f"docs/tutorials.md does not link {missing}"
