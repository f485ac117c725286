"""
The disk cache kept as careful tools keep theirs (`core/disk_cache.py`, docs/model.md
"The disk cache"): nothing in a directory or entry that is not the user's alone is
loaded (a planted pickle never runs), a model file changed in place with its
modification time put back is never answered from the cache, every Python source of
the package is in both caches' keys (an upgrade never runs stale code), `off` is off
for both, temporary files never outlive a failed or killed write, the size cap holds,
and an entry of the wrong kind is reported and left alone.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from tiny_llama import write_tiny_llama

from xdsl_spatial.core import disk_cache
from xdsl_spatial.core.disk_cache import CACHE_ENV, CACHE_SIZE_ENV
from xdsl_spatial.core.memory import LINE
from xdsl_spatial.frontends import model_cache
from xdsl_spatial.frontends.generation import load_model
from xdsl_spatial.interpreters.native.cache import CompileCache
from xdsl_spatial.interpreters.options import RunOptions
from xdsl_spatial.tools import spatial_generate, spatial_run

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


def _load(path: Path, where: Path):
    return load_model(str(path), 3, 24, options=RunOptions(cache=where))


class _Planted:
    """What an attacker plants: a pickle that, loaded, creates a file."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def _plant(entry: Path, marker: Path) -> None:
    entry.write_bytes(model_cache.entry_bytes(pickle.dumps(_Planted(marker)), []))


def test_a_planted_pickle_is_never_loaded_from_what_is_not_yours_alone(tiny, tmp_path):
    where = tmp_path / "cache"
    _load(tiny, where)
    [entry] = where.glob("*.model")
    marker = tmp_path / "ran"
    _plant(entry, marker)
    # a directory others may write: not read, one warning, built without the cache
    where.chmod(0o777)
    with pytest.warns(UserWarning, match="others may write it") as caught:
        model = _load(tiny, where)
    assert not model.cached and not marker.exists()
    assert len([w for w in caught if "cache directory" in str(w.message)]) == 1
    # the directory the user's alone, the entry writable by its group: not read (and
    # replaced by the user's own)
    where.chmod(0o700)
    entry.chmod(0o664)
    with pytest.warns(UserWarning, match="is not read: its group may write it"):
        assert not _load(tiny, where).cached
    assert not marker.exists()
    # another user's entry (as if the user were someone else): not read
    _plant(entry, marker)
    entry.chmod(0o600)
    real = os.geteuid()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "geteuid", lambda: real + 1)
        with pytest.warns(UserWarning, match="owned by user id"):
            assert not _load(tiny, where).cached
    assert not marker.exists()
    # what keeps it out is the check: the user's own entry is loaded (and, not being a
    # model, reported and replaced)
    _plant(entry, marker)
    with pytest.warns(UserWarning, match="holds a TextIOWrapper, not a Model"):
        assert not _load(tiny, where).cached
    assert marker.exists()
    assert _load(tiny, where).cached


def test_a_cache_sized_by_the_run_is_kept_under_its_size(tiny, tmp_path):
    """With no positions given, the check's answer (the run's own size) sizes the cache
    and is in the disk cache's key: the same size is read back, another is built anew;
    the check runs once, on the file's tokenizer, before the cache is looked in."""
    where = tmp_path / "cache"
    calls: list[int] = []

    def sized(n: int):
        def check(config, tokenizer) -> int:
            assert tokenizer  # the file's, read before the lookup
            calls.append(n)
            return n

        return check

    def load(n: int):
        return load_model(str(tiny), 3, options=RunOptions(cache=where), check=sized(n))

    first = load(64)
    first.keep()
    again, other = load(64), load(32)
    assert (first.cached, again.cached, other.cached) == (False, True, False)
    assert (again.positions, other.positions) == (64, 32)
    assert calls == [64, 64, 32]


def test_a_file_changed_in_place_with_its_time_kept_is_not_answered_from_the_cache(tiny, tmp_path):
    path = tmp_path / "model.gguf"
    shutil.copy(tiny, path)
    where = tmp_path / "cache"
    first = _load(path, where)
    st = path.stat()
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x40  # a weight's byte
    path.write_bytes(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_mtime_ns == st.st_mtime_ns and path.stat().st_size == st.st_size
    second = _load(path, where)
    assert not second.cached
    assert any(not np.array_equal(a, b) for a, b in zip(first.weights, second.weights))
    assert _load(path, where).cached


def test_every_source_of_the_package_is_in_both_keys(tmp_path, monkeypatch):
    """An upgrade that changes a dialect or the tile arithmetic (which decide the
    converted code) changes the digest, and the digest is in both caches' keys."""
    names = {name for name, _ in disk_cache.source_files()}
    assert "xdsl_spatial/core/geometry.py" in names
    assert any(n.startswith("xdsl_spatial.dialects/spatial") for n in names)
    assert any(n.startswith("xdsl_spatial.passes/convert_spatial_to_linalg/") for n in names)
    files = [(n, p) for n, p in disk_cache.source_files() if n.endswith("geometry.py")]
    copy = tmp_path / "geometry.py"
    shutil.copy(files[0][1], copy)
    before = disk_cache.sources_digest([(files[0][0], copy)])
    copy.write_text(copy.read_text() + "\n# upgraded\n")
    assert disk_cache.sources_digest([(files[0][0], copy)]) != before
    cache = CompileCache(tmp_path)
    key, model = cache.key("module", "pipeline"), model_cache.model_key(copy, a=1)
    monkeypatch.setattr(disk_cache, "code_digest", lambda: "an upgraded package")
    assert cache.key("module", "pipeline") != key
    assert model_cache.model_key(copy, a=1) != model


def test_off_is_off_everywhere(tiny, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(CACHE_ENV, "off")
    assert model_cache.cache_dir() is None and CompileCache.default().folder is None
    assert not load_model(str(tiny), 3, 24, options=RunOptions(cache=True)).cached
    assert not load_model(str(tiny), 3, 24, options=RunOptions(cache=True)).cached
    assert list(tmp_path.iterdir()) == []  # no ./off


def test_temporary_files_never_outlive_a_write(tmp_path, monkeypatch):
    entry = tmp_path / "k.model"

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as mp:
        mp.setattr(os, "fsync", full_disk)
        why = disk_cache.write_entry(entry, b"x" * 1000)
    assert why is not None and "No space left on device" in why
    assert list(tmp_path.iterdir()) == []
    # what a killed writer left: swept once stale, a fresh one (a writer at work) kept
    (tmp_path / "native").mkdir()
    stale = tmp_path / ".k.model.abc123.tmp"
    fresh = tmp_path / "native" / ".k.o.def456.tmp"
    stale.write_bytes(b"half")
    fresh.write_bytes(b"half")
    old = time.time() - disk_cache.STALE_SECONDS - 60
    os.utime(stale, (old, old))
    disk_cache.evict(tmp_path)
    assert not stale.exists() and fresh.exists()


def test_the_size_cap_keeps_the_most_recently_used(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(CACHE_SIZE_ENV, "3000")
    (tmp_path / "native").mkdir()
    names = ["a.model", "native/b.o", "c.model", "native/d.o"]
    for i, name in enumerate(names):
        assert disk_cache.write_entry(tmp_path / name, bytes(1000)) is None
        os.utime(tmp_path / name, (1000 + i, 1000 + i))
    assert disk_cache.read_entry(tmp_path / "a.model") == bytes(1000)  # used: the newest
    disk_cache.evict(tmp_path)
    kept = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert kept == ["a.model", "c.model", "native/d.o"]
    assert (tmp_path / "a.model").stat().st_mode & 0o777 == 0o600
    why = disk_cache.write_entry(tmp_path / "e.model", bytes(4000))
    assert why is not None and "more than the cache's cap" in why
    assert not (tmp_path / "e.model").exists()
    monkeypatch.setenv(CACHE_SIZE_ENV, "lots")
    assert spatial_run.main([str(REPO / "examples" / "gemv_q8.mlir"), "--seed", "0"]) == 1
    assert "error: XDSL_SPATIAL_CACHE_SIZE=lots: expected a byte count" in capsys.readouterr().err


def test_an_entry_of_the_wrong_kind_is_reported_and_left_alone(tmp_path):
    (tmp_path / "k.model").mkdir()
    with pytest.warns(UserWarning, match="k.model is not a file; not read"):
        assert disk_cache.read_entry(tmp_path / "k.model") is None
    assert (
        disk_cache.write_entry(tmp_path / "k.model", b"x")
        == f"{tmp_path / 'k.model'} is not a file"
    )
    (tmp_path / "l.model").symlink_to(tmp_path / "elsewhere")
    with pytest.warns(UserWarning, match="is a symbolic link"):
        assert disk_cache.read_entry(tmp_path / "l.model") is None
    assert (tmp_path / "k.model").is_dir()


def test_a_directory_that_cannot_be_the_cache_is_one_warning(tmp_path):
    (tmp_path / "file").write_text("not a directory")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert disk_cache.open_dir(tmp_path / "file") is None
        assert disk_cache.open_dir(tmp_path / "file") is None
    assert len(caught) == 1 and "is not a directory" in str(caught[0].message)
    made = disk_cache.open_dir(tmp_path / "new" / "cache")
    assert made is not None and made.stat().st_mode & 0o777 == 0o700


def test_help_names_the_directory_the_cap_and_off(capsys):
    for tool in (spatial_generate, spatial_run):
        assert tool.main(["--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "$XDSL_SPATIAL_CACHE (default ~/.cache/xdsl-spatial; off: no cache)" in text
        assert "capped at $XDSL_SPATIAL_CACHE_SIZE bytes (default 2G" in text


def test_a_model_entry_holds_its_arrays_apart_and_is_checked_before_its_pickle_runs(tmp_path):
    """An entry is its pickle and, apart, its arrays, each on a cache line of the file
    (`model_cache.entry_bytes`); read back, they are views of what was read. One whose
    header points outside it is refused (a warning, deleted) before anything is
    unpickled, even with a checksum that matches."""
    arrays = {"a": np.arange(5, dtype=np.int8), "b": np.ones((3, 4), np.float16)}
    assert model_cache.store(tmp_path, "k", arrays)
    [entry] = tmp_path.glob("*.model")
    back = model_cache.load(tmp_path, "k", dict)
    assert back is not None and back.keys() == arrays.keys()
    for name, a in arrays.items():
        assert back[name].dtype == a.dtype and np.array_equal(back[name], a)
        assert back[name].ctypes.data % LINE == 0 and back[name].base is not None
    data = bytearray(entry.read_bytes())
    head = len(model_cache.MAGIC) + 32 + 16  # the counts, then the first array's span
    data[head : head + 8] = (len(data) - 2).to_bytes(8, "little")  # past the end
    data[len(model_cache.MAGIC) : head - 16] = model_cache.checksum(memoryview(data)[head - 16 :])
    entry.write_bytes(bytes(data))
    with pytest.warns(UserWarning, match="an array lies outside it"):
        assert model_cache.load(tmp_path, "k", dict) is None
    assert not entry.exists()


def test_a_files_digest_is_its_contents_sha256(tmp_path):
    """`file_digest` hashes the file through its mapping (in one call, which lets go of
    Python's lock): the SHA-256 of its bytes, an empty file's too."""
    data = np.random.default_rng(0).integers(0, 256, 3 << 20, dtype=np.uint8).tobytes()
    for name, body in (("some", data), ("empty", b"")):
        (tmp_path / name).write_bytes(body)
        assert disk_cache.file_digest(tmp_path / name) == hashlib.sha256(body).hexdigest()
