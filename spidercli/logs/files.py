"""Reading and writing the files spidercli is given, safely.

Reading (``read_limited``): only a regular file, or ``-`` for standard input. A FIFO, a device
or a socket is refused without blocking: the path is looked at before it is opened, then opened
non-blocking and checked again before a byte is read. At most ``limit`` bytes are read: a bigger
file is refused before it is parsed.

A file read back, then appended to (a sweep's output: ``open_to_append``): only a regular file,
looked at alike before and after it is opened (non-blocking), then read a line at a time
(``lines_of``, ``line_at``), never more than a block and one line held, a line past a limit
refused. ``check_replaceable`` finds at once what ``write_atomic`` would refuse at the end.

Writing (``write_atomic``): a crash never leaves half a file. The text goes to a temporary file
beside the target, is flushed to disk, then renamed over the target (atomic on POSIX and
Windows). A symbolic link is followed (the link stays, the file it points to is replaced); the
file keeps its permission bits, and a new file gets the usual ones (0666 less the umask); anything
that is not a regular file (a FIFO, a device, a directory) is refused and left alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from spidercli.text.messages import N_, Nn_

# The most one log may hold. A finished game's log is a few KB and a long one with every undo
# some 100 KB; a log of the worst kind at this size still replays in a few seconds and well
# under 400 MB (docs/input-safety.md has the figures).
MAX_LOG_BYTES = 1 << 20

STDIN = "-"  # the path that means standard input
STDIN_NAME = "<stdin>"  # what messages call it


class Unreadable(Exception):
    """A file that is not read: ``message`` says why (the caller names the file)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotRegularFile(OSError):
    """A path to write that exists and is not a regular file: it is left alone. Its message
    stays a ``Text`` (``str(err)``, ``message_of(err)``), so that it is said in any language."""

    def __str__(self) -> str:
        message: str = self.args[0]
        return message


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words."""
    if stat.S_ISDIR(mode):
        return N_("a directory")
    if stat.S_ISFIFO(mode):
        return N_("a FIFO (named pipe)")
    if stat.S_ISCHR(mode):
        return N_("a character device")
    if stat.S_ISBLK(mode):
        return N_("a block device")
    if stat.S_ISSOCK(mode):
        return N_("a socket")
    return N_("not a regular file")


def _size_text(n: int) -> str:
    if n >= 1 << 20 and n % (1 << 16) == 0:
        return N_("{n:g} MiB", n=n / (1 << 20))
    return Nn_("{n:,} byte", "{n:,} bytes", n, n=n)


class FileKind:
    """What a file read by ``read_limited`` is meant to be, in the messages about it: a move log
    (``LOG``) unless the caller reads another kind of file."""

    def directory(self) -> str:
        """The message for a directory given in its place."""
        return N_("is a directory, not a move log file")

    def too_big(self, size: str, limit: str) -> str:
        """The message for a file over the limit (``size`` and ``limit`` in words)."""
        return N_(
            "is larger ({size}) than the limit of {limit} for one log; --max-log-bytes raises it",
            size=size,
            limit=limit,
        )


LOG = FileKind()


def _too_big(limit: int, size: str, kind: FileKind) -> Unreadable:
    return Unreadable(kind.too_big(size, _size_text(limit)))


def too_big(limit: int, size: int, kind: FileKind = LOG) -> Unreadable:
    """Why a file (a log, unless ``kind`` says otherwise) of ``size`` bytes is not read: more
    than ``limit``."""
    return _too_big(limit, Nn_("{n:,} byte", "{n:,} bytes", size, n=size), kind)


def read_limited(path: str | Path, limit: int, kind: FileKind = LOG) -> bytes:
    """The bytes of a regular file (or of standard input for ``-``), at most ``limit`` of them;
    ``Unreadable`` otherwise, its message saying what the file should have been (``kind``)."""
    if str(path) == STDIN:
        data = read_stdin(limit)
        if len(data) > limit:
            raise _too_big(limit, N_("more than {size}", size=_size_text(limit)), kind)
        return data
    return _read_regular(path, limit, kind)[0]


class Snapshot(NamedTuple):  # not a dataclass: this module is loaded at every start-up
    """A regular file as it was read, to check before it is replaced that it still is that file
    with those bytes (``write_atomic``'s ``unchanged``)."""

    path: str  # its real path, resolved once (links followed) before it was read
    device: int
    inode: int
    size: int
    mtime_ns: int
    digest: bytes  # SHA-256 of the bytes read


class Changed(Exception):
    """The file to replace is no longer the one read (``Snapshot``): ``message`` says how. It is
    left alone."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def read_to_rewrite(path: str | Path, limit: int) -> tuple[bytes, Snapshot]:
    """``read_limited`` for a file that will be rewritten in place: its bytes, and the
    ``Snapshot`` that ``write_atomic`` checks before it replaces the file. The path is resolved
    here, once: the file written is the file read, whatever its links point to meanwhile."""
    import hashlib  # a file rewritten in place alone (record): not at every start-up

    target = os.path.realpath(path)
    data, info = _read_regular(target, limit, LOG)
    digest = hashlib.sha256(data).digest()
    return data, Snapshot(target, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, digest)


def _read_regular(path: str | Path, limit: int, kind: FileKind) -> tuple[bytes, os.stat_result]:
    """A regular file's bytes (at most ``limit``) and its status when it was opened; the messages
    say what it should have been (``kind``)."""
    # Looked at before it is opened (opening some devices does something), then opened
    # non-blocking and looked at again: what was swapped in between is refused too.
    with contextlib.suppress(OSError):  # the open below says why it cannot be used
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise Unreadable(_not_regular(mode, kind))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError as err:
        raise Unreadable(N_("no such file")) from err
    except IsADirectoryError as err:  # Windows
        raise Unreadable(kind.directory()) from err
    except PermissionError as err:
        raise Unreadable(N_("cannot be read: permission denied")) from err
    except OSError as err:
        if err.errno == errno.ENXIO:  # a socket, or a FIFO's peer gone
            try:
                mode = os.stat(path).st_mode
            except OSError:
                mode = 0
            if mode and not stat.S_ISREG(mode):
                raise Unreadable(_not_regular(mode, kind)) from err
        if err.errno == errno.ELOOP:
            raise Unreadable(N_("cannot be read: a loop of symbolic links")) from err
        raise Unreadable(N_("cannot be read: {reason}", reason=err.strerror or str(err))) from err
    try:
        info = os.fstat(fd)  # taken before reading: a change while reading is a change too
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable(_not_regular(info.st_mode, kind))
        if info.st_size > limit:
            raise too_big(limit, info.st_size, kind)
        chunks = []
        left = limit + 1  # one byte more than allowed: a file that grew is caught too
        while left > 0:
            try:
                chunk = os.read(fd, min(left, 1 << 20))
            except BlockingIOError:  # pragma: no cover - regular files do not block
                continue
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as err:
        raise Unreadable(N_("cannot be read: {reason}", reason=err.strerror or str(err))) from err
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _too_big(limit, N_("more than {size}", size=_size_text(limit)), kind)
    return data, info


def read_stdin(limit: int) -> bytes:
    """At most ``limit + 1`` bytes of standard input (the caller checks the limit)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise Unreadable(N_("cannot be read: standard input is closed"))
    try:
        data: bytes = stream.read(limit + 1)
    except OSError as err:
        raise Unreadable(N_("cannot be read: {reason}", reason=err.strerror or str(err))) from err
    return data


def _not_regular(mode: int, kind: FileKind) -> str:
    if stat.S_ISDIR(mode):
        return kind.directory()
    return N_(
        "is {kind}, not a regular file: only regular files and - (standard input) are read",
        kind=file_kind(mode),
    )


# ------------------------------------------------------------------- a file read, then appended to


def open_to_append(path: str) -> int:
    """A descriptor of the regular file ``path`` opened to be read and appended to (made, with
    the usual permission bits, when it is not there). ``NotRegularFile`` (an ``OSError``) for
    anything else, a FIFO, a device, a directory or a socket: looked at before it is opened
    (opening some devices does something, and a FIFO would block), then opened non-blocking and
    looked at again, so that what was swapped in between is refused too, at once. The open's
    own ``OSError`` when it fails (no permission, no such folder, a read-only file system)."""
    try:
        mode: int | None = os.stat(path).st_mode
    except OSError:  # not there (it is made), or the open below says why it cannot be used
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise NotRegularFile(_not_appended(mode))
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | nonblocking | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o666)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(_not_appended(info.st_mode))
        if nonblocking:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _not_appended(mode: int) -> str:
    return N_("is {kind}, not a regular file: only regular files are written", kind=file_kind(mode))


class LineTooLong(Exception):
    """A line longer than the limit: ``offset``, where it begins."""

    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


def lines_of(fd: int, limit: int, start: int = 0) -> Iterator[tuple[int, bytes, bool]]:
    """The lines of the file open at ``fd`` from byte ``start`` on, read as they are taken, a
    block at a time (the descriptor's position is this reader's until the last is taken): each
    its offset, its bytes without the line break, and whether a line break ended it (only the
    last may lack one). Never more than a block and ``limit`` bytes held: ``LineTooLong`` for a
    longer line."""
    os.lseek(fd, start, os.SEEK_SET)
    held = bytearray()
    at = start  # the offset of held[0]
    while True:
        block = os.read(fd, _BLOCK)
        if not block:
            break
        held += block
        begin = 0
        while True:
            end = held.find(b"\n", begin)
            if end < 0:
                break
            if end - begin > limit:
                raise LineTooLong(at + begin)
            yield at + begin, bytes(held[begin:end]), True
            begin = end + 1
        del held[:begin]
        at += begin
        if len(held) > limit:
            raise LineTooLong(at)
    if held:
        yield at, bytes(held), False


def line_at(fd: int, offset: int, limit: int) -> bytes | None:
    """The line of the file open at ``fd`` that begins at byte ``offset`` (without its line
    break), read a few KB at a time; None when there is none there, or one longer than
    ``limit`` bytes."""
    os.lseek(fd, offset, os.SEEK_SET)
    held = bytearray()
    size = 4096
    while True:
        block = os.read(fd, size)
        if not block:
            return bytes(held) or None
        end = block.find(b"\n")
        if end >= 0:
            held += block[:end]
            return bytes(held) if len(held) <= limit else None
        held += block
        if len(held) > limit:
            return None
        size = min(size * 2, _BLOCK)


_BLOCK = 1 << 16


def check_replaceable(path: str | Path) -> None:
    """What ``write_atomic`` would refuse, found before any work is done: ``NotRegularFile`` (an
    ``OSError``) when ``path`` is there and is not a regular file (a FIFO, a device, a
    directory); the ``OSError`` that keeps a file from being made in its folder (no such folder,
    no permission, a read-only file system), found by making a temporary file there, removed at
    once."""
    target = os.path.realpath(path)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise NotRegularFile(
            N_(
                "is {kind}, not a regular file: not replaced (only regular files are written)",
                kind=file_kind(info.st_mode),
            )
        )
    directory = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    os.close(fd)
    Path(tmp).unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, text: str, unchanged: Snapshot | None = None) -> None:
    """Replace ``path``'s contents with ``text`` (UTF-8), all at once or not at all.

    A symbolic link is followed; the file's permission bits are kept (a new file: 0666 less the
    umask); ``NotRegularFile`` (an ``OSError``) when the path is a FIFO, a device or anything
    else that is not a regular file. With ``unchanged`` (what ``read_to_rewrite`` gave), the file
    written is the one read, at the path resolved then, and it is replaced only if it still is
    that file with those bytes, checked last thing before the rename: ``Changed`` otherwise."""
    # Through symbolic links: the link stays, its file changes.
    target = os.path.realpath(path) if unchanged is None else unchanged.path
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise NotRegularFile(
            N_(
                "is {kind}, not a regular file: not replaced (only regular files are written)",
                kind=file_kind(info.st_mode),
            )
        )
    directory = os.path.dirname(target) or "."
    name = os.path.basename(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
            if info is not None:
                mode = info.st_mode & 0o7777
                if hasattr(os, "geteuid") and os.geteuid() == 0:  # root: keep the owner too
                    with contextlib.suppress(OSError):  # a file system without owners
                        os.fchown(handle.fileno(), info.st_uid, info.st_gid)
            else:
                mode = 0o666 & ~_umask()
            os.chmod(tmp, mode)
        if unchanged is not None:
            _check_unchanged(unchanged)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _check_unchanged(read: Snapshot) -> None:
    """``Changed`` unless ``read.path`` is still the file that was read, with the same bytes:
    the same device and inode (not a link, nor another file renamed over it), size and
    modification time, and the same SHA-256 of its bytes read again (an edit that keeps the size
    and the time, on a file system that counts time coarsely)."""
    import hashlib  # a file rewritten in place alone (record): not at every start-up

    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(read.path, flags)
    except FileNotFoundError as err:
        raise Changed(N_("it was removed or renamed while it was being recorded")) from err
    except OSError as err:  # ELOOP: a symbolic link now stands there
        raise Changed(N_("it was replaced by another file while it was being recorded")) from err
    try:
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != (read.device, read.inode):
            raise Changed(N_("it was replaced by another file while it was being recorded"))
        edited = Changed(N_("it was changed by another program while it was being recorded"))
        if (info.st_size, info.st_mtime_ns) != (read.size, read.mtime_ns):
            raise edited
        digest = hashlib.sha256()
        left = read.size + 1  # one byte more: a file that grew meanwhile differs
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            digest.update(chunk)
            left -= len(chunk)
        if digest.digest() != read.digest:
            raise edited
    finally:
        os.close(fd)


__all__ = [
    "LOG",
    "MAX_LOG_BYTES",
    "STDIN",
    "STDIN_NAME",
    "Changed",
    "FileKind",
    "LineTooLong",
    "NotRegularFile",
    "Snapshot",
    "Unreadable",
    "check_replaceable",
    "line_at",
    "lines_of",
    "open_to_append",
    "read_limited",
    "read_to_rewrite",
    "too_big",
    "write_atomic",
]
