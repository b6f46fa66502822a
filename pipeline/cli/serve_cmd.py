"""`serve [--exam ID] [--port N]`: build the exam's site, serve it on 127.0.0.1, rebuild and reload on every edit.

Runs until stopped (Ctrl-C). The site is rebuilt on each change of the sources, the templates or
pipeline.toml (only what changed: the build is incremental); the study guide, the slowest output, is built
when its link is opened. Exit 2 when the port is taken or the exam cannot be chosen.
"""

from __future__ import annotations

import argparse
import logging
import signal
import threading
from pathlib import Path

from pipeline import render as registry
from pipeline.build import Plan
from pipeline.cli.build_cmd import out_folder
from pipeline.console import say
from pipeline.errors import UsageError
from pipeline.load.loader import exam_folders, exam_path
from pipeline.load.yamlsource import load_yaml
from pipeline.paths import TEMPLATES
from pipeline.serve import watch
from pipeline.serve.server import GUIDE_PATH, make_server, serve_in_thread
from pipeline.serve.session import Session
from pipeline.settings import project as config
from pipeline.settings.reader import Reader
from pipeline.text.messages import did_you_mean

DEFAULT_PORT = 8000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    parser.add_argument("--exam", metavar="ID", help="the exam to serve (default: the only exam in the sources)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N", help=f"the port on 127.0.0.1 (default: {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR", help="the output folder (default: `out` in pipeline.toml, else build)")
    parser.add_argument("--strict", action="store_true", default=None, help="treat warnings as errors (default: `strict` in pipeline.toml, else off)")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date to check review dates against (default: SOURCE_DATE_EPOCH, else the clock)")


def _exam_ids(sources: Path) -> list[str]:
    """Each exam folder's id (its exam file's `id`, else the folder's name), without validating anything."""
    ids = []
    for folder in exam_folders(sources):
        try:
            data = load_yaml(exam_path(folder)).data if exam_path(folder) else None
        except Exception:  # an unreadable exam file: serve it and let the build say what is wrong
            data = None
        ids.append(str(data["id"]) if isinstance(data, dict) and isinstance(data.get("id"), str) else folder.name)
    return ids


def choose_exam(sources: Path, wanted: str | None) -> str:
    ids = _exam_ids(sources)
    if wanted is None:
        if len(ids) == 1:
            return ids[0]
        raise UsageError(f"error: {len(ids)} exams in {sources}: choose one with --exam ID (exams: {', '.join(ids)})")
    if wanted not in ids:
        raise UsageError(f"error: no exam '{wanted}' in {sources}{did_you_mean(wanted, ids)} (exams: {', '.join(ids)})")
    return wanted


def _session(args: argparse.Namespace) -> Session:
    def plan(settings: config.Settings, exam_id: str, outputs: tuple[str, ...]) -> Plan:
        own = settings.for_exam(exam_id)
        return Plan(outputs, {name: own.options.get(name, option.default) for name, (_, option) in registry.options().items()})

    def strict(settings: config.Settings, exam_id: str) -> bool:
        return bool(args.strict) or bool(settings.for_exam(exam_id).strict)

    return Session(args.sources, choose_exam(args.sources, args.exam), out_folder(args), plan, strict, config.load, lambda: Reader(args.today))


def _stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and SIGTERM end the watch loop; SIGINT even where the shell that started serve in the
    background set it to be ignored."""
    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def _quiet_libraries(debug: bool) -> None:
    """serve prints only its own lines: a library's log line (watchfiles' "3 changes detected", a warning of
    the PDF engine) says nothing an author can act on, and what fails reaches them as serve's own message.
    Python prints unhandled warnings through its last-resort handler; a handler on the root logger replaces it.
    With --debug the libraries speak."""
    if not debug:
        logging.getLogger().addHandler(logging.NullHandler())


def run(args: argparse.Namespace) -> int:
    _stop_on_signals()
    _quiet_libraries(getattr(args, "debug", False))
    session = _session(args)
    try:
        server = make_server(session, args.port)
    except OSError as exc:
        raise UsageError(f"error: cannot serve on 127.0.0.1:{args.port} ({exc.strerror}); choose another with --port N") from None
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    stop, serving = threading.Event(), None

    def changed(paths: set[str]) -> None:
        say.info(f"serve: changed: {', '.join(sorted(paths))}")
        session.build()

    try:  # from here on Ctrl-C stops serving, whenever it comes
        session.build()
        serving = serve_in_thread(server)
        say.summary(f"serve: {session.exam} at {url} (the study guide, built when opened: {url}{GUIDE_PATH.lstrip('/')}); Ctrl-C stops")
        watch.run(watch.watch_paths(args.sources, TEMPLATES, config.CONFIG), TEMPLATES, changed, stop)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        session.status.stop()
        if serving is not None:  # shutdown() waits for a serve_forever loop: only when one runs
            server.shutdown()
        server.server_close()
    say.summary("serve: stopped")
    return 0
