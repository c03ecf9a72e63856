"""One sync station as a process of its own, for the tests of several stations on one event
(tests/test_postgres_stations.py), as `serve` runs on each station's machine:

    python tests/station_process.py URL TIMEOUT PORT...

runs host_sync.station.serve.Station, serve's loop (a thread and a database connection per
port), for one pass over its ports, and prints one JSON line: {"ports": {port: [state, error]},
"started": t, "ended": t} (wall-clock seconds, so that the test can see the stations overlap).
Exit status 1 if a sync did not end within two minutes."""

import json
import sys
import time

from host_sync.station.serve import Station


def main(argv):
    url, timeout, ports = argv[0], float(argv[1]), argv[2:]
    station = Station(url, ports, timeout=timeout)
    started = time.time()
    station.poll()
    idle = station.wait_idle(120)
    json.dump({"ports": {path: [state, error] for path, state, _, error in station.snapshot()},
               "started": started, "ended": time.time()}, sys.stdout)
    sys.stdout.write("\n")
    return 0 if idle else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
