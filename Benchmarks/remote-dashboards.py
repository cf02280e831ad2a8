#!/usr/bin/env python3
"""Many remote dashboards on one server, as hmon's dashboard loads its screens; run by remote-dashboards.sh.

Each dashboard is a thread with its own keep-alive connection that, every 2 s, opens the next of the six
screens (devices, weights, energy, HRV, insights, overview) through its screen view
(`GET /v1.1/hmon/views/screens/NAME`), sending the ETag it holds for that screen as `If-None-Match`, as the
dashboard does; meanwhile a weigh-in is posted every second. Prints requests/s, each screen load's time
(p50, p99), the errors (anything but 200 and 304), the 304 share, and the servers' CPU seconds
(utime + stime from /proc/PID/stat).

    remote-dashboards.py TOKEN PORT[,PORT…] --pids PID[,PID…] --dashboards 100 --seconds 60 [--post-port PORT]
"""
import argparse
import http.client
import json
import os
import random
import threading
import time
import urllib.parse


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered))) - 1))] if ordered else float("nan")


def get_json(port, path, token):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    reply = connection.getresponse()
    body = reply.read()
    connection.close()
    if reply.status != 200:
        raise SystemExit(f"GET {path} was answered {reply.status}: {body[:300]!r}")
    return json.loads(body)["data"]


def screen_paths(port, token, midnight_ms, now_ms):
    """The six screens' paths as the demo user's dashboard asks for them."""
    view = get_json(port, "/v1.1/hmon/views/devices", token)
    manifests = view["manifests"]

    def recording(field):
        return [d["id"] for d in view["devices"]
                if any(f.get("name") == field for f in manifests.get(d["dtid"], {}).get("fields", []))]
    scales, logs, meters = recording("weight"), recording("calories"), recording("rmssd")
    day = time.strftime("%Y-%m-%d", time.localtime(now_ms / 1000))
    week = time.strftime("%Y-%m-%d", time.localtime(now_ms / 1000 - 6 * 86_400))
    month = time.strftime("%Y-%m-%d", time.localtime(now_ms / 1000 - 29 * 86_400))
    months = time.strftime("%Y-%m-%d", time.localtime(now_ms / 1000 - 149 * 86_400))

    def q(**items):
        return urllib.parse.urlencode(items)
    base = "/v1.1/hmon/views/screens/"
    return [
        base + "devices?" + q(since=midnight_ms, count=12),
        base + "weights?" + q(**{"from": months, "to": day, "devices": ",".join(scales), "count": 20}),
        base + "energy?" + q(**{"from": week, "to": day, "now": now_ms, "foodLogs": ",".join(logs), "learned": "true"}),
        base + "hrv?" + q(devices=",".join(meters), count=400, through=day),
        base + "insights?" + q(today=day, days=365),
        base + "overview?" + q(**{"from": month, "to": day, "now": now_ms}),
    ], (scales[0] if scales else None)


class Dashboard(threading.Thread):
    def __init__(self, port, token, paths, until, results, lock):
        super().__init__(daemon=True)
        self.port, self.token, self.paths, self.until = port, token, paths, until
        self.results, self.lock = results, lock
        self.etags = {}

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        step = random.randrange(len(self.paths))
        next_at = time.monotonic() + random.uniform(0, 2)
        while True:
            pause = next_at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            if time.monotonic() >= self.until:
                break
            path = self.paths[step % len(self.paths)]
            headers = {"Authorization": f"Bearer {self.token}"}
            if path in self.etags:
                headers["If-None-Match"] = self.etags[path]
            start = time.perf_counter()
            try:
                connection.request("GET", path, headers=headers)
                reply = connection.getresponse()
                reply.read()
                status = reply.status
                if reply.getheader("ETag"):
                    self.etags[path] = reply.getheader("ETag")
            except (OSError, http.client.HTTPException):
                status = 0
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            elapsed = (time.perf_counter() - start) * 1000
            with self.lock:
                self.results.append((path.split("?")[0].rsplit("/", 1)[1], status, elapsed))
            step += 1
            next_at += 2


def poster(port, token, sdid, until, statuses):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    kg = 70.0
    next_at = time.monotonic()
    while time.monotonic() < until:
        kg = 70.0 + random.uniform(-0.5, 0.5)
        body = json.dumps({"sdid": sdid, "data": {"weight": round(kg, 2)}})
        connection.request("POST", "/v1.1/messages", body=body,
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        reply = connection.getresponse()
        reply.read()
        statuses.append(reply.status)
        next_at += 1
        time.sleep(max(0, next_at - time.monotonic()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("token")
    parser.add_argument("ports")
    parser.add_argument("--pids", required=True)
    parser.add_argument("--dashboards", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--post-port", type=int)
    parser.add_argument("--label", default="")
    parser.add_argument("--sequential", type=int, metavar="ROUNDS",
                        help="instead: time each screen ROUNDS times, one request at a time, no ETag, each computed "
                             "(a `round` parameter the server ignores makes each request one it has not kept); "
                             "print medians as JSON")
    options = parser.parse_args()
    ports = [int(p) for p in options.ports.split(",")]
    pids = [int(p) for p in options.pids.split(",")]
    now_ms = int(time.time() * 1000)
    local = time.localtime()
    midnight_ms = int(time.mktime((local.tm_year, local.tm_mon, local.tm_mday, 0, 0, 0, 0, 0, -1)) * 1000)
    paths, scale = screen_paths(ports[0], options.token, midnight_ms, now_ms)

    if options.sequential:
        connection = http.client.HTTPConnection("127.0.0.1", ports[0], timeout=120)
        medians = {}
        for path in paths:
            samples = []
            for round_number in range(options.sequential):
                asked = f"{path}&round={round_number}-{time.monotonic_ns()}"
                start = time.perf_counter()
                connection.request("GET", asked, headers={"Authorization": f"Bearer {options.token}"})
                reply = connection.getresponse()
                reply.read()
                if reply.status != 200:
                    raise SystemExit(f"GET {path} was answered {reply.status}")
                samples.append((time.perf_counter() - start) * 1000)
            medians[path.split("?")[0].rsplit("/", 1)[1]] = percentile(samples, 0.5)
        print(json.dumps(medians))
        return

    if scale is None:
        raise SystemExit("the user has no scale to post weigh-ins to")
    results, lock, posts = [], threading.Lock(), []
    before = sum(cpu_seconds(pid) for pid in pids)
    began = time.monotonic()
    until = began + options.seconds
    threads = [Dashboard(ports[i % len(ports)], options.token, paths, until, results, lock) for i in range(options.dashboards)]
    for thread in threads:
        thread.start()
    post_thread = threading.Thread(target=poster, args=(options.post_port or ports[0], options.token, scale, until, posts), daemon=True)
    post_thread.start()
    for thread in threads:
        thread.join()
    post_thread.join()
    elapsed = time.monotonic() - began
    used = sum(cpu_seconds(pid) for pid in pids) - before

    times = [ms for _, status, ms in results if status in (200, 304)]
    errors = [status for _, status, _ in results if status not in (200, 304)]
    not_modified = sum(1 for _, status, _ in results if status == 304)
    print(f"{options.label}{options.dashboards} dashboards on {len(ports)} server(s), {elapsed:.0f} s, a screen every 2 s each, "
          f"a weigh-in every second:")
    print(f"  {len(results) / elapsed:.1f} screen requests/s; screen time p50 {percentile(times, 0.5):.1f} ms, "
          f"p99 {percentile(times, 0.99):.1f} ms (aim: under 250 ms); {len(errors)} errors {sorted(set(errors))}; "
          f"{100 * not_modified / max(1, len(results)):.0f} % answered 304")
    per_screen = {}
    for name, status, ms in results:
        per_screen.setdefault(name, []).append(ms)
    print("  by screen (p50 / p99 ms): " + ", ".join(
        f"{name} {percentile(v, 0.5):.1f} / {percentile(v, 0.99):.1f}" for name, v in sorted(per_screen.items())))
    bad_posts = [s for s in posts if s != 200]
    print(f"  posts: {len(posts)}, {len(bad_posts)} refused; server CPU {used:.1f} s ({100 * used / elapsed:.0f} % of one core)")


if __name__ == "__main__":
    main()
