"""A tiny test runner for the cuprum_py scripts: no pytest on the GPU
machine. Tests register with @test; run() runs them in order, prints one
line each and closes with 'N passed, N failed, N skipped'."""
import sys
import traceback

_TESTS = []


class Skip(Exception):
    """Raised by a test that cannot run here; the reason is printed."""


def test(fn):
    _TESTS.append(fn)
    return fn


def raises(exc, fn, *args, match=None, **kwargs):
    """Asserts that fn(*args, **kwargs) raises exc (with `match` in its
    message); returns the exception."""
    try:
        fn(*args, **kwargs)
    except exc as e:
        if match is not None and match not in str(e):
            raise AssertionError(f"{type(e).__name__} without {match!r}: {e}") from e
        return e
    raise AssertionError(f"{getattr(fn, '__name__', fn)} did not raise {exc.__name__}")


def run(title):
    passed = failed = skipped = 0
    for fn in _TESTS:
        name = fn.__name__
        try:
            fn()
        except Skip as s:
            skipped += 1
            print(f"SKIP: {name}: {s}", flush=True)
        except Exception:
            failed += 1
            print(f"FAIL: {name}", flush=True)
            traceback.print_exc()
            sys.stderr.flush()
        else:
            passed += 1
            print(f"ok   {name}", flush=True)
    print(f"{title}: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0
