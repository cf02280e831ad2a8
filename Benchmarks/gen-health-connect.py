#!/usr/bin/env python3
"""Writes a Life Dashboard Companion payload (a first sync's backfill) of about SIZE bytes to stdout.

    Benchmarks/gen-health-connect.py [SIZE]     (default 33,000,000: just under the server's 32 MiB limit)

Four records in five are a minute's resting heart rate ({"bpm", "time"}: HC Webhook's short shape, about 41
bytes),
one in five a step count with the companion's uuid and source (about 170 bytes), a minute apart from
2024-01-01: the mix of many small records that made a 31 MB batch 472,710 records. Deterministic, so two
runs post the same batch.
"""
import datetime
import sys
import uuid

size = int(sys.argv[1]) if len(sys.argv) > 1 else 33_000_000
start = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)


def stamp(minute):
    return (start + datetime.timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:%SZ")


head = '{"timestamp":"2025-06-01T12:00:00Z","app_version":"1.2.0","source":"health_connect",'
heart, steps = [], []
written = len(head) + len('"resting_heart_rate":[],"steps":[]}')
minute = 0
while written < size - 200:
    if minute % 5 == 4:
        record = ('{"count":%d,"start_time":"%s","end_time":"%s","source":"com.google.android.apps.fitness","uuid":"%s"}'
                  % (20 + minute % 97, stamp(minute), stamp(minute + 1), uuid.UUID(int=minute)))
        steps.append(record)
    else:
        record = '{"bpm":%d,"time":"%s"}' % (55 + minute % 60, stamp(minute))
        heart.append(record)
    written += len(record) + 1
    minute += 1
sys.stdout.write(head + '"resting_heart_rate":[' + ",".join(heart) + '],"steps":[' + ",".join(steps) + "]}")
sys.stderr.write("gen-health-connect: %d records (%d resting heart rate, %d steps), %d bytes\n"
                 % (len(heart) + len(steps), len(heart), len(steps), written))
