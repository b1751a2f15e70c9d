"""docs/media.md runs as written: each Python example prints what the page says it prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._markdown import code_blocks

PAGE = Path(__file__).resolve().parents[2] / "docs" / "media.md"


def test_each_example_prints_what_the_page_says(capsys: pytest.CaptureFixture[str]) -> None:
    text = PAGE.read_text()
    examples, printed = code_blocks(text, "python"), code_blocks(text, "text")
    assert len(examples) == len(printed) == 3
    for example, said in zip(examples, printed, strict=True):
        exec(compile(example, str(PAGE), "exec"), {})
        assert capsys.readouterr().out == said
