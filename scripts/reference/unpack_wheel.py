"""Copy the files under one folder of a wheel (a zip) into OUT_DIR, without importing the wheel.

Usage: python unpack_wheel.py WHEEL FOLDER OUT_DIR
Standard library only, so it runs before the reference environment exists.
"""

import sys
import zipfile
from pathlib import Path, PurePosixPath


def unpack(wheel: Path, folder: str, out_dir: Path) -> int:
    prefix = folder.rstrip("/") + "/"
    count = 0
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if info.is_dir() or not info.filename.startswith(prefix):
                continue
            rel = PurePosixPath(info.filename[len(prefix) :])
            if ".." in rel.parts or rel.is_absolute():
                raise SystemExit(f"{wheel}: refusing path {info.filename}")
            target = out_dir.joinpath(*rel.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(info))
            count += 1
    if count == 0:
        raise SystemExit(f"{wheel}: no files under {prefix}")
    return count


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: unpack_wheel.py WHEEL FOLDER OUT_DIR")
    print(unpack(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])))
