"""``thegame daily site``: its ranges (one line, exit 2), the folders it
refuses, a build interrupted before its end (nothing half-written, the
earlier site kept) and a rebuild that keeps the days an earlier site holds."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from tests.support.cli import run_main
from tests.web.conftest import BEFORE, DAY


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--days", "0"], "--days: must be 1-1000"),
        (["--days", "1001"], "--days: must be 1-1000"),
        (["--from", "1999-12-31", "--days", "1"], "2000-01-01..2099-12-31"),
        (["--from", "2099-12-31", "--days", "2"], "2000-01-01..2099-12-31"),
        (["--from", "2026-02-30"], "not a valid date"),
        (["--from", "tomorrow"], "not a date YYYY-MM-DD"),
    ],
)
def test_out_of_range_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], words: str
) -> None:
    out = tmp_path / "site"
    code, stdout, stderr = run_main(capsys, "daily", "site", *args, "--out", str(out))
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and words in stderr, stderr
    assert not out.exists()


def test_a_folder_that_is_not_a_site_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("mine")
    afile = tmp_path / "file"
    afile.write_text("x")
    for out in (keep, afile, tmp_path / "no" / "such"):
        code, _, stderr = run_main(capsys, "daily", "site", "--days", "1", "--out", str(out))
        assert code == 2 and stderr.count("\n") == 1, stderr
    assert (keep / "notes.txt").read_text() == "mine" and afile.read_text() == "x"


def test_an_interrupted_build_leaves_nothing_half_written(tmp_path: Path, site_dir: Path) -> None:
    from thegame.puzzles.site import build_site

    def stop(_: str) -> None:
        raise KeyboardInterrupt

    fresh = tmp_path / "fresh"
    with pytest.raises(KeyboardInterrupt):
        build_site(dt.date(2026, 1, 1), 2, fresh, progress=stop)
    assert list(tmp_path.iterdir()) == []
    # Over an earlier site: that site stays whole.
    earlier = tmp_path / "earlier"
    shutil.copytree(site_dir, earlier)
    before = sorted(p.relative_to(earlier) for p in earlier.rglob("*"))
    with pytest.raises(KeyboardInterrupt):
        build_site(dt.date(2026, 1, 1), 2, earlier, progress=stop)
    assert sorted(p.relative_to(earlier) for p in earlier.rglob("*")) == before
    assert [p.name for p in tmp_path.iterdir()] == ["earlier"]


def test_a_rebuild_keeps_the_days_an_earlier_site_holds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, site_dir: Path
) -> None:
    out = tmp_path / "site"
    shutil.copytree(site_dir, out)
    (out / "daily" / BEFORE / "day.json").write_text("{}")  # not a day: made again
    # A kept day's solver configuration follows the package's .wasm (made again from its deal).
    kept = out / "daily" / DAY / "day.json"
    old = json.loads(kept.read_text())
    old["classic"]["kernel"] = {"format": 0}
    kept.write_text(json.dumps(old))
    code, stdout, stderr = run_main(
        capsys, "daily", "site", "--from", BEFORE, "--days", "3", "--out", str(out), "--json"
    )
    assert code == 0, stderr
    summary = json.loads(stdout)
    assert summary["days"] == 3 and summary["kept"] == 2 and summary["made"] == 1
    assert f"making the puzzles of {BEFORE}" in stderr
    day = json.loads((out / "daily" / BEFORE / "day.json").read_text())
    assert day["date"] == BEFORE and day["classic"]["puzzle"]["date"] == BEFORE
    # No request to another host, no inline script, in any page.
    for page in out.rglob("*.html"):
        text = page.read_text()
        assert "http://" not in text and "https://" not in text, page
        assert "<script>" not in text and "<script " in text, page
        assert 'src="/' not in text and 'href="/' not in text, page  # relative links only
    assert json.loads((out / "thegame-site.json").read_text())["days"] == 3
    from thegame.models.the_game import Deal
    from thegame.puzzles.site import kernel_config

    again = json.loads(kept.read_text())["classic"]
    assert again["kernel"] == kernel_config(Deal.from_dict(again["puzzle"]["deal"]))
