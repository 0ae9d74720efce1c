"""The engine. When a native build of its hot modules exists for exactly these sources (`sgsdsl native build`),
they load compiled from it; see `sgsdsl/native.py`."""

from ..native import activate as _activate

_activate(__path__, "engine")
