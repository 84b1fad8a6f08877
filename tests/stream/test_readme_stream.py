"""The manual's *Streams of launches* examples (docs/cli.md) print what the program prints."""

import json
import re
import shlex
from pathlib import Path

import pytest

from explorer.cli.main import main

README = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _examples():
    text = README.read_text(encoding="utf-8")
    section = text.split("### Streams of launches", 1)[1].split("\n### ", 1)[0]
    out = []
    for lang, block in re.findall(r"^```(\w*)\n(.*?)^```$", section, flags=re.S | re.M):
        if lang:  # a TOML snippet, not a session
            continue
        commands = re.split(r"^\$ ", block, flags=re.M)[1:]
        for chunk in commands:
            command, _, expected = chunk.partition("\n")
            out.append((command.strip(), expected.rstrip("\n")))
    return out


EXAMPLES = _examples()


def test_the_section_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("command,expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example(command, expected, capsys):
    program, _, pipe = command.partition(" | ")
    args = shlex.split(program)
    assert args[0] == "warp-explorer"
    assert main(args[1:]) == 0
    printed = capsys.readouterr().out
    if pipe == "grep stream":
        assert "\n".join(line for line in printed.splitlines() if "stream" in line) == expected
    elif pipe == "jq .stream":
        assert json.loads(printed)["stream"] == json.loads(expected)
    else:
        pytest.fail(f"no checker for '| {pipe}'")
