"""The languages bots are written in: how each is recognised, built and run.

Pure data and parsing, no Django: the upload checks (arena/services/bots.py), the
worker's build and launch (workers/sandbox/builds.py, workers/sandbox/native.py) and the
`arena` command's local play all read the same table, so a bot builds and starts the
same way on an author's machine as on a worker.

A bot is either one source file, its language told by its extension, or an archive
(zip or tar) holding a manifest, `arena.toml`:

    language = "cpp"        # one of LANGUAGES
    entry = "bot.cpp"       # the file the build starts from, or that runs
    build = "g++ -O2 -o bot *.cpp"   # optional: the language's default otherwise

A build runs once per version, in its own sandbox with the unpacked files as its working
folder (workers/sandbox/builds.py). Compiled languages must leave an executable `bot`
there; Java leaves classes, with `main` in the class named by the entry file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import PurePosixPath

MANIFEST = "arena.toml"
# What a compiled language's build must leave in its folder: the program that runs.
PROGRAM = "bot"
MAX_BUILD_COMMAND = 1000


class ManifestError(ValueError):
    """A manifest or source file the arena cannot build: the message says what to change."""


@dataclass(frozen=True)
class Language:
    """One language: how a bot in it is recognised, built and started.

    `run` is the command inside the sandbox, with `{entry}` (the entry file's name),
    `{stem}` (the name without its extension) and `{heap_mb}` (the memory a managed
    runtime may use for its heap) filled in; its first word is a tool looked up on the
    host (`tools`) and bound into the sandbox at the same path. The allowances are what
    a runtime needs beyond the bot's limits, charged to no bot: address space its
    runtime reserves but never touches (memory is bounded by the cgroup, which counts
    what is used), threads the runtime starts itself, and start-up time before the
    first move (measured per runtime: docs/bot-authors/languages.md).
    """

    name: str
    title: str
    extensions: tuple[str, ...]
    default_entry: str
    build: str | None
    run: tuple[str, ...]
    tools: tuple[str, ...] = ()
    build_tools: tuple[str, ...] = ()
    extra_address_space_mb: int = 0
    extra_processes: int = 0
    warmup_seconds: float = 0.0

    @property
    def is_python(self) -> bool:
        return self.name == "python"

    def run_argv(self, entry: str, heap_mb: int) -> list[str]:
        stem = PurePosixPath(entry).stem
        return [part.format(entry=entry, stem=stem, heap_mb=heap_mb) for part in self.run]


LANGUAGES: dict[str, Language] = {
    language.name: language
    for language in (
        Language(
            name="python",
            title="Python",
            extensions=(".py",),
            default_entry="bot.py",
            build=None,
            run=(),  # the arena's runner (bots/sdk/runner.py) loads the bot
        ),
        Language(
            name="cpp",
            title="C++",
            extensions=(".cpp", ".cc", ".cxx"),
            default_entry="bot.cpp",
            build="g++ -O2 -std=c++17 -pipe -o bot *.cpp",
            run=("./bot",),
            build_tools=("g++",),
        ),
        Language(
            name="rust",
            title="Rust",
            extensions=(".rs",),
            default_entry="main.rs",
            build="rustc -O --edition 2021 -o bot {entry}",
            run=("./bot",),
            build_tools=("rustc",),
        ),
        Language(
            name="go",
            title="Go",
            extensions=(".go",),
            default_entry="main.go",
            build="go build -o bot *.go",
            run=("./bot",),
            build_tools=("go",),
            # The Go runtime reserves ~600 MB of address space for its page allocator
            # at start, and starts a thread per CPU plus its monitor.
            extra_address_space_mb=1024,
            extra_processes=16,
        ),
        Language(
            name="java",
            title="Java",
            extensions=(".java",),
            default_entry="Bot.java",
            build="javac -encoding UTF-8 -d . *.java",
            # Serial GC, one JIT compiler thread and small reserved areas keep the JVM
            # inside the bot's memory and process limits; the heap is half the memory.
            # The JVM's own warnings go to stderr, never onto the protocol (stdout).
            run=(
                "java",
                "-Xmx{heap_mb}m",
                "-Xss1m",
                "-Xlog:disable",
                "-Xlog:all=warning:stderr",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-XX:CICompilerCount=1",
                "-XX:ReservedCodeCacheSize=32m",
                "-XX:MaxMetaspaceSize=96m",
                "-XX:-UseCompressedClassPointers",
                "-XX:-UsePerfData",
                "-Xshare:auto",
                "-cp",
                ".",
                "{stem}",
            ),
            tools=("java",),
            build_tools=("javac",),
            # Thread stacks, the code cache, metaspace and malloc arenas: measured, a
            # 512 MB bot fails to start its threads with less than +1 GB.
            extra_address_space_mb=1536,
            extra_processes=24,
            warmup_seconds=2.0,
        ),
        Language(
            name="javascript",
            title="JavaScript (Node.js)",
            extensions=(".js", ".mjs", ".cjs"),
            default_entry="bot.js",
            build=None,
            # V8 reserves its code range and cage up front (~750 MB of address space).
            run=("node", "--max-old-space-size={heap_mb}", "{entry}"),
            tools=("node",),
            extra_address_space_mb=1024,
            extra_processes=16,
            warmup_seconds=0.5,
        ),
    )
}

EXTENSIONS = {ext: language for language in LANGUAGES.values() for ext in language.extensions}


@dataclass(frozen=True)
class Manifest:
    """What a bot's archive says (or its lone file implies): language, entry, build."""

    language: Language
    entry: str
    build: str | None

    def to_dict(self) -> dict[str, str | None]:
        return {"language": self.language.name, "entry": self.entry, "build": self.build}


def language_named(name: object) -> Language:
    if not isinstance(name, str) or name.strip().lower() not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        raise ManifestError(f"unknown language {name!r}; the arena runs {known}")
    return LANGUAGES[name.strip().lower()]


def language_of_file(filename: str) -> Language | None:
    """The language of a lone source file, from its extension (None: not a source file)."""
    return EXTENSIONS.get(PurePosixPath(filename.lower()).suffix)


def manifest_for_file(filename: str) -> Manifest:
    """The manifest a lone source file implies: its language's default build of it."""
    language = language_of_file(filename)
    if language is None:
        raise ManifestError(f"{filename!r} is not a source file the arena knows")
    entry = PurePosixPath(filename).name
    build = language.build.format(entry=entry) if language.build else None
    return Manifest(language=language, entry=entry, build=build)


def parse_manifest(text: bytes, names: set[str]) -> Manifest:
    """Parse `arena.toml`; `names` are the archive's files, which must hold the entry."""
    try:
        values = tomllib.loads(text.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ManifestError(f"{MANIFEST} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{MANIFEST} is not valid TOML: {exc}") from None
    unknown = sorted(set(values) - {"language", "entry", "build"})
    if unknown:
        raise ManifestError(
            f"{MANIFEST} has an unknown key {unknown[0]!r}; it takes language, entry and build"
        )
    if "language" not in values:
        raise ManifestError(f'{MANIFEST} must say the bot\'s language (language = "cpp")')
    language = language_named(values["language"])
    entry = values.get("entry", language.default_entry)
    if not isinstance(entry, str) or not entry or entry.startswith("/") or ".." in entry:
        raise ManifestError(f"{MANIFEST}: entry must be a file name inside the archive")
    if entry not in names:
        raise ManifestError(f"{MANIFEST} names entry {entry!r}, which is not in the archive")
    if PurePosixPath(entry).suffix.lower() not in language.extensions:
        wanted = " or ".join(language.extensions)
        raise ManifestError(f"a {language.title} bot's entry ends in {wanted}, not {entry!r}")
    if language.is_python and entry != language.default_entry:
        raise ManifestError("a Python bot's entry is bot.py at the top of the archive")
    build = values.get("build")
    if build is not None:
        if not isinstance(build, str) or not build.strip():
            raise ManifestError(f"{MANIFEST}: build must be a command line (a string)")
        if len(build) > MAX_BUILD_COMMAND or "\0" in build:
            raise ManifestError(f"{MANIFEST}: build is longer than {MAX_BUILD_COMMAND} characters")
        if language.build is None:
            raise ManifestError(f"{language.title} bots have no build step; remove build")
    elif language.build:
        build = language.build.format(entry=entry)
    return Manifest(language=language, entry=entry, build=build)


def manifest_of_archive(files: dict[str, bytes], *, zip_file: bool) -> Manifest:
    """An archive's manifest: its arena.toml, or a Python bot when a zip holds bot.py."""
    python = LANGUAGES["python"]
    if MANIFEST in files:
        manifest = parse_manifest(files[MANIFEST], set(files))
    elif python.default_entry in files and zip_file:
        manifest = Manifest(language=python, entry=python.default_entry, build=None)
    else:
        raise ManifestError(
            f"the archive has no {MANIFEST} (language, entry) and no "
            f"{python.default_entry} at its top level"
        )
    if manifest.language.is_python and not zip_file:
        raise ManifestError("a Python bot is a .py file or a .zip")
    return manifest


def unknown_file_message(filename: str) -> str:
    known = ", ".join(f"{lang.title} {'/'.join(lang.extensions)}" for lang in LANGUAGES.values())
    return (
        f"upload a source file ({known}; a Python file is the default) or a zip or "
        f"tar archive with {MANIFEST}, not {filename!r}"
    )
