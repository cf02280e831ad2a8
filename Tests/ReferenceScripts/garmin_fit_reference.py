#!/usr/bin/env python3
"""Decodes FIT files with Garmin's own FIT SDK (garmin-fit-sdk, pinned in
Tests/ThirdPartyClients/requirements.txt) and prints, as one JSON object, the fields hmon reads of each:
its file_id and its weight_scale, blood_pressure, hrv_status_summary, sleep_level, event and monitoring messages, with the
profile's scales applied and times as seconds since the Unix epoch. GarminFITReferenceTests compares
hmon's decoder with this, field for field.

    python garmin_fit_reference.py FILE...
"""
import datetime
import json
import sys

from garmin_fit_sdk import Decoder, Stream

FIELDS = {
    'file_id_mesgs': ['type', 'manufacturer', 'product', 'serial_number'],
    'weight_scale_mesgs': ['timestamp', 'weight', 'percent_fat', 'percent_hydration', 'bone_mass', 'muscle_mass'],
    'blood_pressure_mesgs': ['timestamp', 'systolic_pressure', 'diastolic_pressure', 'heart_rate'],
    'hrv_status_summary_mesgs': ['timestamp', 'last_night_average'],
    'sleep_level_mesgs': ['timestamp', 'sleep_level'],
    'event_mesgs': ['timestamp', 'event', 'event_type'],
    'monitoring_info_mesgs': ['timestamp', 'local_timestamp'],
    'monitoring_mesgs': ['timestamp', 'timestamp_16', 'cycles', 'activity_type', 'active_calories', 'heart_rate'],
    'monitoring_hr_data_mesgs': ['timestamp', 'resting_heart_rate', 'current_day_resting_heart_rate'],
}


def plain(value):
    if isinstance(value, datetime.datetime):
        return int(value.timestamp())
    return value


def main():
    out = {}
    for path in sys.argv[1:]:
        if not Decoder(Stream.from_file(path)).check_integrity():
            sys.exit(f'{path}: garmin-fit-sdk finds the file damaged')
        decoder = Decoder(Stream.from_file(path))  # the check reads the stream to its end
        messages, errors = decoder.read(convert_types_to_strings=False, expand_sub_fields=False,
                                        expand_components=False, merge_heart_rates=False)
        if errors:
            sys.exit(f'{path}: {errors}')
        out[path] = {key: [{name: plain(message[name]) for name in names if message.get(name) is not None}
                           for message in messages.get(key, [])]
                     for key, names in FIELDS.items()}
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == '__main__':
    main()
