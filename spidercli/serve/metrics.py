"""``spidercli serve``'s counts, in Prometheus' text format (``GET /metrics``): requests by
endpoint and status, their latencies as histograms, the verdicts, and the judging processes
replaced.

The figures live in one shared memory map, made before the server's processes are forked, with
a slot for each process: a process adds only to its own slot (no lock, no torn count), and
``/metrics``, whichever process answers it, sums every slot. So a scrape sees the whole server,
as one process would count it, however many ``--workers`` share the port.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterator

# The endpoints, by route (a path never becomes a label: no unbounded set of series).
ENDPOINTS = (
    "/v1/verify",
    "/v1/verify/batch",
    "/v1/deal/{code}",
    "/v1/deals/{name}",
    "/v1/hint",
    "/v1/solve",
    "/v1/openapi.json",
    "/healthz",
    "/metrics",
    "other",
)
HTTP_STATUSES = (200, 204, 400, 404, 405, 408, 413, 415, 422, 431, 500, 503)
VERDICTS = ("valid", "illegal", "expect-failed", "invalid-input")
REPLACED = ("died", "cpu", "stuck")  # why a judging process was replaced
# Latency buckets, in seconds (the last is +Inf).
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

_COUNTS = 0  # requests: endpoint x (status..., other status)
_HIST = _COUNTS + len(ENDPOINTS) * (len(HTTP_STATUSES) + 1)  # endpoint x (buckets..., +Inf, sum)
_VERDICTS = _HIST + len(ENDPOINTS) * (len(BUCKETS) + 2)
_REPLACED = _VERDICTS + len(VERDICTS)
_SLOT = _REPLACED + len(REPLACED)  # figures in a process's slot
_WIDTH = 8  # bytes a figure (a double: whole counts exact up to 2**53)


class Metrics:
    """The counts of ``slots`` processes in one shared map; ``slot`` is this process's."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._map = mmap.mmap(-1, slots * _SLOT * _WIDTH)  # anonymous, shared across a fork
        self._all = memoryview(self._map).cast("d")
        self.slot = 0
        self._mine = self._all[0:_SLOT]

    def use_slot(self, slot: int) -> None:
        """This process adds to slot ``slot`` (a forked server process calls it first)."""
        self.slot = slot
        self._mine = self._all[slot * _SLOT : (slot + 1) * _SLOT]

    def request(self, endpoint: int, status: int, seconds: float) -> None:
        """A request answered: its endpoint (an index of ``ENDPOINTS``), status and latency."""
        mine = self._mine
        column = HTTP_STATUSES.index(status) if status in HTTP_STATUSES else len(HTTP_STATUSES)
        mine[_COUNTS + endpoint * (len(HTTP_STATUSES) + 1) + column] += 1
        base = _HIST + endpoint * (len(BUCKETS) + 2)
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                mine[base + i] += 1
        mine[base + len(BUCKETS)] += 1  # +Inf: the count
        mine[base + len(BUCKETS) + 1] += seconds

    def verdict(self, status: str) -> None:
        self._mine[_VERDICTS + VERDICTS.index(status)] += 1

    def replaced(self, why: str) -> None:
        self._mine[_REPLACED + REPLACED.index(why)] += 1

    def _sum(self, index: int) -> float:
        return sum(self._all[slot * _SLOT + index] for slot in range(self.slots))

    def answered(self) -> int:
        """The requests answered by every process."""
        step = len(BUCKETS) + 2
        return int(sum(self._sum(_HIST + e * step + len(BUCKETS)) for e in range(len(ENDPOINTS))))

    def text(self) -> str:
        """Every slot's counts summed, in Prometheus' text exposition format (0.0.4)."""
        return "".join(self._lines())

    def _lines(self) -> Iterator[str]:
        yield (
            "# HELP spidercli_http_requests_total HTTP requests answered, by endpoint and status.\n"
        )
        yield "# TYPE spidercli_http_requests_total counter\n"
        for e, endpoint in enumerate(ENDPOINTS):
            for s, status in enumerate([*map(str, HTTP_STATUSES), "other"]):
                value = self._sum(_COUNTS + e * (len(HTTP_STATUSES) + 1) + s)
                if value:
                    labels = f'endpoint="{endpoint}",status="{status}"'
                    yield f"spidercli_http_requests_total{{{labels}}} {value:.0f}\n"
        name = "spidercli_http_request_duration_seconds"
        yield f"# HELP {name} Time from a request's start to its answer.\n"
        yield f"# TYPE {name} histogram\n"
        for e, endpoint in enumerate(ENDPOINTS):
            base = _HIST + e * (len(BUCKETS) + 2)
            count = self._sum(base + len(BUCKETS))
            if not count:
                continue
            for i, bound in enumerate(BUCKETS):
                value = self._sum(base + i)
                yield f'{name}_bucket{{endpoint="{endpoint}",le="{bound:g}"}} {value:.0f}\n'
            yield f'{name}_bucket{{endpoint="{endpoint}",le="+Inf"}} {count:.0f}\n'
            yield f'{name}_sum{{endpoint="{endpoint}"}} {self._sum(base + len(BUCKETS) + 1):.6f}\n'
            yield f'{name}_count{{endpoint="{endpoint}"}} {count:.0f}\n'
        yield "# HELP spidercli_verdicts_total Logs judged, by verdict.\n"
        yield "# TYPE spidercli_verdicts_total counter\n"
        for v, status in enumerate(VERDICTS):
            yield f'spidercli_verdicts_total{{status="{status}"}} {self._sum(_VERDICTS + v):.0f}\n'
        yield "# HELP spidercli_judges_replaced_total Judging processes replaced, by reason.\n"
        yield "# TYPE spidercli_judges_replaced_total counter\n"
        for r, why in enumerate(REPLACED):
            value = self._sum(_REPLACED + r)
            yield f'spidercli_judges_replaced_total{{reason="{why}"}} {value:.0f}\n'
        yield "# HELP spidercli_server_processes The server's processes sharing the port.\n"
        yield "# TYPE spidercli_server_processes gauge\n"
        yield f"spidercli_server_processes {self.slots}\n"
