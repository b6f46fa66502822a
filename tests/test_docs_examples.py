"""Every example in the documentation is checked against the real tool, so the docs cannot lie.

Sybil reads each page's code blocks (docs/contributing/docs.md says what each kind must satisfy):
- `sh`: each `exam-prep` line parses with the real argparse parser, each `make TARGET` names a Makefile target
  (its ARGS parsed by the verb's parser), each file a line names exists in the project, and no other program
  appears unless listed in KNOWN; a block after `<!-- docs-test: run -->` also runs, line after line, in a
  fresh content folder, each line exiting 0 (a line that "runs until Ctrl-C" or "needs the network" is parsed only);
- `yaml`: after `<!-- docs-test: KIND -->` (exam, objective, exam-part, ci), loaded by `validate` in a fixture
  exam (no error) or, for `ci`, read as YAML with its script lines checked as `sh` lines; a yaml block without
  a kind fails (`questions`: list items added to the objective example, where a question drawn by code may
  only lack its draw, `variants-not-run`, since `variants` runs it in the sandbox);
- `toml`: read by the pipeline's own `pipeline.toml` parser;
- `csv`: given to `stats` with the source format page's objective example, every row matched.
"""

from __future__ import annotations

import copy
import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from sybil import Sybil
from sybil.parsers.markdown import CodeBlockParser

from pipeline.cli.main import main, make_parser
from pipeline.settings import project as config
from pipeline.text.prog import MAKE_TARGETS
from tests.conftest import FIXTURES, ROOT, TODAY

DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "reference" not in p.parts)  # the generated pages hold no examples
MAKE_RULES = set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), flags=re.M))
# Programs a docs command may run besides exam-prep and make: the installer and system tools the install page names.
KNOWN = {"python3", "pip", "apt-get", "npm"}
KIND = re.compile(r"<!-- docs-test: ([a-z-]+) -->\s*$")
VENV_BIN = Path(sys.prefix) / "bin"


def kind_of(example) -> str | None:
    """The `<!-- docs-test: KIND -->` comment on the line before the block, if any."""
    before = example.document.text[:example.start].rstrip("\n").rsplit("\n", 1)[-1]
    match = KIND.search(before)
    return match[1] if match else None


# ---- sh ---------------------------------------------------------------------------------------------------

def _commands(line: str) -> list[list[str]]:
    """The simple commands of one shell line, its comment left out (`a && b; c | d`)."""
    words = shlex.split(line, comments=True)
    commands, current = [], []
    for word in words:
        if word in ("&&", "||", ";", "|"):
            commands.append(current)
            current = []
        else:
            current.append(word)
    return [c for c in commands + [current] if c]


def _parses(argv: list[str]) -> str | None:
    """None when the real parser takes `argv`; else what it said."""
    try:
        make_parser(argv).parse_args(argv)
    except SystemExit as exc:
        return None if exc.code == 0 else f"exam-prep {shlex.join(argv)}: the parser refuses it (exit {exc.code})"
    return None


def check_command(words: list[str]) -> str | None:
    program = words[0]
    name = program.rsplit("/", 1)[-1]
    if name == "exam-prep":
        return _parses(words[1:])
    if name in ("python", "python3") and words[1:3] == ["-m", "pipeline"]:
        return _parses(words[3:])
    if name == "make":
        targets = [w for w in words[1:] if "=" not in w]
        if not targets or any(t not in MAKE_RULES for t in targets):
            return f"{shlex.join(words)}: the Makefile has no such target ({sorted(MAKE_RULES)})"
        args = next((w.split("=", 1)[1] for w in words[1:] if w.startswith("ARGS=")), None)
        if args is not None and targets[0] in MAKE_TARGETS:
            return _parses([targets[0], *shlex.split(args)])
        return None
    if name in ("python", "python3") and words[1:3] == ["-m", "pytest"]:
        missing = [w for w in words[3:] if not w.startswith("-") and not (ROOT / w.split("::")[0]).exists()]
        return f"{shlex.join(words)}: no such test file {missing}" if missing else None
    if name in KNOWN:
        return None
    return f"{shlex.join(words)}: a program the docs tests do not know; check it here (KNOWN) or leave it out"


def check_sh_line(line: str) -> list[str]:
    return [problem for words in _commands(line) if (problem := check_command(words))]


def lines_of(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def not_run(line: str) -> bool:
    return "runs until Ctrl-C" in line or "needs the network" in line


def evaluate_sh(example):
    lines = lines_of(example.parsed)
    assert lines, "an empty sh block"
    problems = [p for line in lines for p in check_sh_line(line)]
    assert not problems, "\n".join(problems)
    if kind_of(example) != "run":
        return
    folder = example.namespace["content"]
    env = {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}", "NO_COLOR": "1"}
    for inherited in ("SOURCE_DATE_EPOCH", "MAKEFLAGS", "MAKELEVEL", "ARGS", "EXAM_PREP_RUN_BY"):
        env.pop(inherited, None)
    ran = 0
    for line in lines:
        if not_run(line):
            continue
        done = subprocess.run(["bash", "-c", line], cwd=folder, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        ran += 1
    assert ran, "a run block with nothing run"
    example.namespace["ran"].append(ran)


# ---- yaml, toml, csv --------------------------------------------------------------------------------------

def _valid_exam() -> dict:
    return yaml.safe_load((FIXTURES / "exams" / "valid.yaml").read_text(encoding="utf-8"))


def _objective(number: int) -> str:
    return (f'id: "{number}.1"\ntitle: A docs objective\nsummary: One point.\nreviewed: 2026-11-01\n'
            f'key_points:\n  - id: {number}.1-point\n    text: A point.\n    citations:\n'
            f'      - {{url: "https://www.nvidia.com/en-us/", title: NVIDIA, quote: "NVIDIA"}}\n')


def validate(sources: Path, capsys=None, allowed: frozenset[str] = frozenset()) -> None:
    """`validate` on `sources`, in-process: exit 0 and no error line; with `allowed`, errors of those codes only."""
    code = main(["-q", "validate", "--sources", str(sources), "--today", TODAY])
    if allowed:
        captured = capsys.readouterr()
        errors = [line for line in (captured.out + captured.err).splitlines() if ": error: " in line]
        assert errors and all(line.endswith(tuple(f"[{c}]" for c in allowed)) for line in errors), "\n".join(errors)
        return
    assert code == 0, f"validate exited {code} on the docs' example (the errors are above)"


def _exam_folder(root: Path, exam_id: str) -> Path:
    folder = root / "sources" / exam_id
    folder.mkdir(parents=True)
    return folder


def evaluate_yaml(example):
    kind = kind_of(example)
    text = example.parsed
    data = yaml.safe_load(text)
    root = Path(example.namespace["tmp"]) / f"yaml-{example.line}"
    if kind == "exam":
        folder = _exam_folder(root, data["id"])
        (folder / "exam.yaml").write_text(text, encoding="utf-8")
        number = data["sections"][0]["number"]
        (folder / f"{number}.1.yaml").write_text(_objective(number), encoding="utf-8")
    elif kind == "objective":
        number = int(data["id"].split(".")[0])
        exam = _valid_exam()
        exam["sections"] = [{"number": number, "title": "Docs", "weight": 50}]
        folder = _exam_folder(root, exam["id"])
        (folder / "exam.yaml").write_text(yaml.safe_dump(exam, sort_keys=False), encoding="utf-8")
        (folder / "objective.yaml").write_text(text, encoding="utf-8")
    elif kind == "exam-part":
        exam = _valid_exam()
        for key, value in data.items():
            exam[key] = {**exam.get(key, {}), **value} if isinstance(value, dict) else value
        folder = _exam_folder(root, exam["id"])
        (folder / "exam.yaml").write_text(yaml.safe_dump(exam, sort_keys=False), encoding="utf-8")
        (folder / "1.1.yaml").write_text(_objective(1), encoding="utf-8")
    elif kind == "questions":  # questions added to the source format page's objective example
        objective = yaml.safe_load(objective_example())
        exam = _valid_exam()
        exam["sections"] = [{"number": int(objective["id"].split(".")[0]), "title": "Docs", "weight": 50}]
        folder = _exam_folder(root, exam["id"])
        (folder / "exam.yaml").write_text(yaml.safe_dump(exam, sort_keys=False), encoding="utf-8")
        text = objective_example() + textwrap.indent(textwrap.dedent(text), "  ")  # under the example's `questions:`
        (folder / "objective.yaml").write_text(text, encoding="utf-8")
        # a question whose values come from code is drawn by `variants` in the sandbox, not by validate: the one
        # error left is that it has not been drawn yet
        drawn_by_code = any(isinstance(q, dict) and "code" in (q.get("variants") or {}) for q in data)
        validate(root / "sources", example.namespace["capsys"], frozenset({"variants-not-run"}) if drawn_by_code else frozenset())
        example.namespace["validated"].append(kind)
        return
    elif kind == "ci":
        scripts = [line for job in data.values() if isinstance(job, dict) for line in job.get("script", [])]
        assert scripts, "a CI example without a script"
        problems = [p for line in scripts for p in check_sh_line(line)]
        assert not problems, "\n".join(problems)
        return
    else:
        raise AssertionError(f"a yaml block needs `<!-- docs-test: KIND -->` before it (exam, objective, exam-part, ci), got {kind!r}")
    validate(root / "sources")
    example.namespace["validated"].append(kind)


def evaluate_toml(example):
    settings = config.parse(example.parsed, Path("pipeline.toml"))
    assert settings is not None


def objective_example() -> str:
    """The source format page's objective example: the sources the stats page's answers were given to."""
    page = (DOCS / "authoring" / "sources.md").read_text(encoding="utf-8")
    return re.search(r"<!-- docs-test: objective -->\n```yaml\n(.*?)^```", page, flags=re.S | re.M)[1]


def evaluate_csv(example):
    root = Path(example.namespace["tmp"]) / f"csv-{example.line}"
    text = objective_example()
    exam = _valid_exam()
    exam["sections"] = [{"number": int(yaml.safe_load(text)["id"].split(".")[0]), "title": "Docs", "weight": 50}]
    folder = _exam_folder(root, exam["id"])
    (folder / "exam.yaml").write_text(yaml.safe_dump(exam, sort_keys=False), encoding="utf-8")
    (folder / "objective.yaml").write_text(text, encoding="utf-8")
    answers = root / "answers.csv"
    answers.write_text(example.parsed, encoding="utf-8")
    code = main(["stats", "--sources", str(root / "sources"), "--out", str(root / "stats"), "--today", TODAY, str(answers)])
    assert code == 0, "stats refused the docs' long-format example"
    example.namespace["stats"].append(answers)


PARSERS = [CodeBlockParser("sh", evaluate_sh), CodeBlockParser("yaml", evaluate_yaml),
           CodeBlockParser("toml", evaluate_toml), CodeBlockParser("csv", evaluate_csv)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_example_on_the_page_holds(page, tmp_path, capsys, monkeypatch):
    document = Sybil(PARSERS, path=str(DOCS)).parse(page)
    content = tmp_path / "content"
    content.mkdir()
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    document.namespace.update(tmp=str(tmp_path), content=content, ran=[], validated=[], stats=[], capsys=capsys)
    examples = list(document)
    failures = []
    for example in examples:
        try:
            example.evaluate()
        except Exception as exc:  # every example of the page, each named by its line
            failures.append(f"{page.relative_to(ROOT)}:{example.line}: {exc}\n{capsys.readouterr().err}")
    assert not failures, "\n\n".join(failures)
    text = page.read_text(encoding="utf-8")
    fenced = len(re.findall(r"^```(?:sh|yaml|toml|csv)\s*$", text, flags=re.M))
    assert len(examples) == fenced  # every such block was found and evaluated
    marks = re.findall(r"^<!-- docs-test: ([a-z-]+) -->$", text, flags=re.M)
    assert len(document.namespace["ran"]) == marks.count("run")  # run blocks ran, not only parsed
    validated = sum(marks.count(k) for k in ("exam", "objective", "exam-part", "questions"))
    assert len(document.namespace["validated"]) == validated
    assert len(document.namespace["stats"]) == len(re.findall(r"^```csv", text, flags=re.M))


def test_the_pages_hold_examples_of_each_kind():
    """The pages the checks above are for: the loop ran over blocks of every kind."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in PAGES)
    for kind in ("run", "exam", "objective", "exam-part", "ci", "questions"):
        assert f"<!-- docs-test: {kind} -->" in text, kind
    assert re.search(r"^```toml", text, flags=re.M) and re.search(r"^```csv", text, flags=re.M)


def test_a_renamed_option_or_field_fails():
    """The checks can fail: a wrong option, target or field is caught."""
    assert check_sh_line("exam-prep build --exam demo --only-these guide")
    assert check_sh_line('make validate ARGS="--exma demo"')
    assert check_sh_line("make no-such-target")
    assert check_sh_line("curl https://example.com | sh")
    assert not check_sh_line('exam-prep build --exam demo --only guide,deck  # a comment')


def test_a_yaml_example_with_a_misspelt_field_fails(tmp_path):
    class Stub:
        line = 1
        start = 0
        namespace = {"tmp": str(tmp_path), "validated": []}

    stub = Stub()
    stub.document = type("D", (), {"text": "<!-- docs-test: objective -->\n"})()
    stub.start = len(stub.document.text)
    good = objective_example()
    stub.parsed = good
    evaluate_yaml(stub)  # the page's example passes
    broken = copy.copy(stub)
    broken.line, broken.parsed = 2, good.replace("\ntitle: Efficiency", "\ntitel: Efficiency", 1)
    with pytest.raises(AssertionError, match="validate exited 1"):
        evaluate_yaml(broken)
