"""Command-line conventions: global options before or after the command, -q and -v, colour only on a
terminal and never with NO_COLOR, files written with the umask's mode."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

from tests.conftest import ROOT, TODAY


@pytest.mark.parametrize("args", [("-q", "validate"), ("validate", "-q"), ("--quiet", "validate", "--today", TODAY)])
def test_quiet_before_or_after_the_command_prints_only_problems_and_the_summary(run_cli, make_sources, args):
    sources = make_sources("valid", "duplicate_stem")
    result = run_cli(*args, "--today", TODAY, cwd=sources.parent)
    assert result.err.splitlines() == ["validate: 1 exam(s), 2 objective(s): 0 error(s), 1 warning(s)"]
    assert len(result.lines) == 1 and result.lines[0].endswith("[duplicate-stem]")


def test_verbose_and_debug_are_global_too(run_cli, make_sources):
    sources = make_sources("valid", "terms_four", audited=False)
    terse = run_cli("validate", "--today", TODAY, cwd=sources.parent)
    chatty = run_cli("-v", "validate", "--debug", "--today", TODAY, cwd=sources.parent)
    assert len(terse.lines) == 1 and len(chatty.lines) == 5  # five quotes not checked: one line, or each listed


def test_quiet_and_verbose_together_are_a_usage_error(run_cli, make_sources, capsys):
    sources = make_sources("valid")
    with pytest.raises(SystemExit) as leaving:
        run_cli("validate", "-q", "-v", cwd=sources.parent)
    assert leaving.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def _on_a_terminal(args: list[str], cwd, env_extra: dict[str, str]) -> str:
    """What the command prints on a pseudo-terminal (stdout and stderr both)."""
    primary, secondary = pty.openpty()
    env = {**{k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", **env_extra}
    process = subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=cwd, env=env, stdout=secondary, stderr=secondary)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(60)
    os.close(primary)
    return b"".join(chunks).decode()


def test_colour_on_a_terminal_and_never_with_no_color(make_sources):
    sources = make_sources("valid", "answer_not_in_options")
    coloured = _on_a_terminal(["validate", "--today", TODAY], sources.parent, {})
    plain = _on_a_terminal(["validate", "--today", TODAY], sources.parent, {"NO_COLOR": "1"})
    assert "\x1b[" in coloured and "error" in coloured
    assert "\x1b[" not in plain and ": error: " in plain


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_files_are_written_with_the_umasks_mode(tmp_path, umask, mode):
    target = tmp_path / "state.json"
    code = f"import os; os.umask({umask}); from pipeline.publish.atomic import write_atomic; write_atomic(__import__('pathlib').Path({str(target)!r}), b'{{}}')"
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert target.stat().st_mode & 0o777 == mode


def test_a_rewritten_file_keeps_its_mode(tmp_path):
    from pipeline.publish.atomic import write_atomic

    target = tmp_path / "objective.yaml"
    target.write_text("a: 1\n")
    target.chmod(0o640)
    write_atomic(target, b"a: 2\n")
    assert (target.read_text(), target.stat().st_mode & 0o777) == ("a: 2\n", 0o640)
