"""cupyx.scipy.ndimage for bench/gpu/dryrun: every function a no-op."""


def __getattr__(name):
    def function(x, *args, **kwargs):
        return x
    return function
