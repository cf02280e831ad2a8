#!/usr/bin/env python3
"""The change feed's figures, against a running `hmon serve`; run by feed-latency.sh.

Opens N change feeds (GET /v1.1/hmon/changes) as N dashboards would, posts a weigh-in through the SAMI
route, and times, at each client, from just before the post is sent to the moment that client has read the
`event: change` line off its socket: post-to-event latency as a dashboard sees it (its reload and redraw come
on top). Then, with the feeds open and nothing posted, the server's CPU seconds (utime + stime from
/proc/PID/stat) over a while.

    feed-latency.py PORT SERVER_PID TOKEN SDID --feeds 1,100 --rounds 100 --idle-seconds 60
"""
import argparse
import http.client
import json
import os
import random
import select
import socket
import threading
import time


def open_feed(port, token):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall((f"GET /v1.1/hmon/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
               "Accept: text/event-stream\r\n\r\n").encode())
    buffered = b""
    while b"event: ready" not in buffered:
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit(f"the feed closed before its ready event: {buffered[:300]!r}")
        buffered += chunk
    s.setblocking(False)
    return s


def post(port, token, sdid, kg):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    body = json.dumps({"sdid": sdid, "data": {"weight": kg}})
    connection.request("POST", "/v1.1/messages", body=body,
                       headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    status = connection.getresponse().status
    connection.close()
    if status != 200:
        raise SystemExit(f"the post was answered {status}")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered))) - 1))]


def latencies(port, token, sdid, feeds, rounds, post_port=None):
    """Milliseconds from post to event, one per feed and round; and how many events never came (5 s).
    With `post_port`, the posts go to another server on the same store: the feeds' server learns of them
    through its look at the store's change token (every 100 ms) on SQLite, through NOTIFY on PostgreSQL."""
    post_port = post_port or port
    sockets = [open_feed(port, token) for _ in range(feeds)]
    samples, missed = [], 0
    for round_number in range(rounds):
        time.sleep(random.uniform(0.05, 0.15))
        waiting = {s.fileno(): s for s in sockets}
        seen = {fd: b"" for fd in waiting}
        start = time.perf_counter()
        poster = threading.Thread(target=post, args=(post_port, token, sdid, 60 + (round_number % 100) / 10))
        poster.start()
        deadline = start + 5
        while waiting and time.perf_counter() < deadline:
            ready, _, _ = select.select(list(waiting.values()), [], [], 0.5)
            now = time.perf_counter()
            for s in ready:
                chunk = s.recv(65536)
                seen[s.fileno()] += chunk
                if b"event: change" in seen[s.fileno()]:
                    samples.append((now - start) * 1000)
                    del waiting[s.fileno()]
        missed += len(waiting)
        poster.join()
        # Anything else that came (a heartbeat) is read and dropped before the next round.
        for s in sockets:
            try:
                while s.recv(65536):
                    pass
            except BlockingIOError:
                pass
    return sockets, samples, missed


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("pid", type=int)
    parser.add_argument("token")
    parser.add_argument("sdid")
    parser.add_argument("--feeds", default="1,100")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--idle-seconds", type=float, default=60)
    parser.add_argument("--other-port", type=int, help="another server on the same store, to post to")
    options = parser.parse_args()

    print("post-to-event latency, measured at each feed's client as it reads `event: change` (a dashboard's"
          " reload and redraw come on top):")
    kept = []
    for feeds in [int(n) for n in options.feeds.split(",")]:
        for s in kept:
            s.close()
        kept, samples, missed = latencies(options.port, options.token, options.sdid, feeds, options.rounds)
        print(f"  {feeds:>4} feed(s) open: median {percentile(samples, 0.5):.1f} ms, p99 {percentile(samples, 0.99):.1f} ms"
              f" over {len(samples)} events ({options.rounds} posts), {missed} missed (aim: under 200 ms)")
    if options.other_port:
        feeds = max(int(n) for n in options.feeds.split(","))
        for s in kept:
            s.close()
        # These stay open for the idle minute below (one user may hold 128 feeds).
        kept, samples, missed = latencies(options.port, options.token, options.sdid, feeds, options.rounds, options.other_port)
        print(f"  {feeds:>4} feed(s) open, posts to another server on the same store: median {percentile(samples, 0.5):.1f} ms,"
              f" p99 {percentile(samples, 0.99):.1f} ms over {len(samples)} events, {missed} missed (aim: under 200 ms)")
    idle = len(kept)
    time.sleep(1)
    before = cpu_seconds(options.pid)
    time.sleep(options.idle_seconds)
    used = cpu_seconds(options.pid) - before
    print(f"server CPU with {idle} idle feeds open for {options.idle_seconds:.0f} s: {used:.2f} s"
          f" ({100 * used / options.idle_seconds:.2f} % of one core)")
    for s in kept:
        s.close()


if __name__ == "__main__":
    main()
