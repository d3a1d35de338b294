"""scripts/profile_public.py times every public call it lists and leaves the real backends in place."""
from linalg import _dispatch

from . import load_script


def test_every_case_timed_and_backends_restored(capsys):
    profile = load_script("profile_public")
    before = dict(_dispatch._BACKENDS)
    assert profile.main(["--repeat", "1", "--calls", "3"]) == 0
    out = capsys.readouterr().out
    for name in profile.cases():
        assert f"{name} " in out
    assert dict(_dispatch._BACKENDS) == before
