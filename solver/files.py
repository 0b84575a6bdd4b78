"""Writing the files a run makes (an HTML page, a bench baseline) so that
a failure leaves the file as it was: the new text goes to a temporary file
beside it, which then takes its name.  A full disk or a killed process
used to leave a page cut in the middle in place of the last good one."""
from __future__ import annotations

import os
import stat
import tempfile


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def replace_file(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all.  A path that names a
    device or a pipe (``/dev/stdout``, a FIFO) is written as it is, since it
    cannot be replaced; a symbolic link's target is replaced, not the link.
    A new file gets the usual mode (0666 less the umask), an old one keeps
    its own."""
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "wb") as f:
            f.write(data)
        return
    target = os.path.realpath(path)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target),
                               prefix="." + os.path.basename(target) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
