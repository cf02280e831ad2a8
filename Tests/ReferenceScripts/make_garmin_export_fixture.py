#!/usr/bin/env python3
"""Writes Tests/Fixtures/garmin-connect/garmin-export.zip: Garmin Connect's "Export your data" archive, cut down to a
few records of each file hmon reads, laid out and shaped as published importers read real ones:

- `DI_CONNECT/DI-Connect-Wellness/<from>_<to>_<user>_sleepData.json`: an array of nights, `calendarDate`,
  `sleepStartTimestampGMT` and `sleepEndTimestampGMT` as UTC text like "2024-06-14T22:09:00.0", and
  `deepSleepSeconds`, `lightSleepSeconds`, `remSleepSeconds`, `awakeSleepSeconds`, `unmeasurableSeconds`
  (garmin-grafana's bulk importer, src/garmin_grafana/garmin_bulk_importer.py, `load_sleep_stats` and
  `calculate_sleeping_seconds`, which parses the end time with `datetime.fromisoformat` as UTC).
- `DI_CONNECT/DI-Connect-Aggregator/UDSFile_<from>_<to>.json`: an array of days, `calendarDate`,
  `totalSteps`, `activeKilocalories`, `restingHeartRate` (and `currentDayRestingHeartRate`), a
  `{"hydration": {...}}` entry among them (garmin-grafana's `load_agg_stats`).
- `DI_CONNECT/DI-Connect-Wellness/<user>_userBioMetrics.json`: an array of records, each with `metaData`
  (`calendarDate`, the local time) and, for a weigh-in, a `weight` object: `weight` in grams, `bodyFat` and
  `bodyWater` in %, `boneMass` and `muscleMass` in grams, `sourceType` (INDEX_SCALE, MANUAL, USER_SETTING)
  and `timestampGMT`; other records hold the height or a VO2 max instead.
- `DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip`: the FIT files the devices uploaded, a
  zip inside the zip (garmin-grafana's `load_fit_file_index`): here the scale's weight file and the watch's
  sleep file of Tests/Fixtures/garmin/GARMIN, as a watch's folder holds them.
- `DI_CONNECT/DI-Connect-Fitness/<user>_0_summarizedActivities.json` (`[{"summarizedActivitiesExport":
  [...]}]`, garmin-grafana's `load_activities`) and `DI_CONNECT/DI-Connect-User/user_profile.json`, which hmon
  does not read.

Run from the package root:

    python3 Tests/ReferenceScripts/make_garmin_export_fixture.py

The zip is committed; this script is how it was made. Entry times are fixed, so a run writes the same bytes.
"""
import io
import json
import zipfile
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / 'Tests' / 'Fixtures' / 'garmin'
USER = 12345678
WHEN = (2026, 6, 9, 12, 0, 0)


def entry(archive, path, data):
    info = zipfile.ZipInfo(path, date_time=WHEN)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def as_json(value):
    return json.dumps(value, indent=2).encode()


BIOMETRICS = [
    # The scale's weigh-in that its FIT file (in the uploads) also holds: the FIT file's is kept.
    {'version': 2, 'metaData': {'calendarDate': '2026-03-14T07:40:00.0', 'sequence': 1, 'userProfilePK': USER},
     'weight': {'weight': 72450.0, 'bmi': 23.1, 'bodyFat': 21.3, 'bodyWater': 55.2, 'boneMass': 3100,
                'muscleMass': 33400, 'sourceType': 'INDEX_SCALE', 'timestampGMT': '2026-03-14T06:40:00.0'}},
    # A weigh-in typed into Garmin Connect.
    {'version': 1, 'metaData': {'calendarDate': '2026-03-17T07:55:00.0', 'sequence': 2, 'userProfilePK': USER},
     'weight': {'weight': 71800.0, 'sourceType': 'MANUAL', 'timestampGMT': '2026-03-17T06:55:00.0'}},
    # The scale's weigh-in with a failed impedance reading: Garmin writes 0 for what it could not measure.
    {'version': 1, 'metaData': {'calendarDate': '2026-03-18T07:02:00.0', 'sequence': 3, 'userProfilePK': USER},
     'weight': {'weight': 71650.0, 'bmi': 22.9, 'bodyFat': 0.0, 'bodyWater': 0.0, 'boneMass': 0,
                'muscleMass': 0, 'sourceType': 'INDEX_SCALE', 'timestampGMT': '2026-03-18T06:02:00.0'}},
    # The profile's weight setting, not a weigh-in.
    {'version': 1, 'metaData': {'calendarDate': '2026-03-01T10:00:00.0', 'sequence': 4, 'userProfilePK': USER},
     'weight': {'weight': 73000.0, 'sourceType': 'USER_SETTING'}},
    # Records without a weight: the height, a VO2 max.
    {'version': 1, 'metaData': {'calendarDate': '2026-03-01T10:00:00.0', 'sequence': 5, 'userProfilePK': USER},
     'height': 178.0},
    {'version': 1, 'metaData': {'calendarDate': '2026-03-15T18:00:00.0', 'sequence': 6, 'userProfilePK': USER},
     'vo2MaxRunning': 48.0},
]

SLEEP = [
    # The night the watch's sleep file (in the uploads) also holds, as Garmin Connect summed it.
    {'calendarDate': '2026-03-14', 'sleepStartTimestampGMT': '2026-03-13T22:50:00.0',
     'sleepEndTimestampGMT': '2026-03-14T06:20:00.0', 'sleepWindowConfirmationType': 'ENHANCED_CONFIRMED_FINAL',
     'deepSleepSeconds': 3600, 'lightSleepSeconds': 14400, 'remSleepSeconds': 6000, 'awakeSleepSeconds': 1440,
     'unmeasurableSeconds': 1560, 'averageRespiration': 14.2, 'awakeCount': 2, 'retro': False,
     'sleepScores': {'overallScore': 78, 'qualityScore': 74}},
    # A night only Garmin Connect has: 22:40 to 06:10, 450 minutes.
    {'calendarDate': '2026-03-15', 'sleepStartTimestampGMT': '2026-03-14T22:40:00.0',
     'sleepEndTimestampGMT': '2026-03-15T06:10:00.0', 'sleepWindowConfirmationType': 'ENHANCED_CONFIRMED_FINAL',
     'deepSleepSeconds': 4800, 'lightSleepSeconds': 14400, 'remSleepSeconds': 5400, 'awakeSleepSeconds': 2400,
     'unmeasurableSeconds': 0, 'retro': False},
    # A day the watch was not worn at night: Garmin writes the day with no times.
    {'calendarDate': '2026-03-16', 'retro': False},
]

DAYS = [
    {'userProfilePK': USER, 'calendarDate': '2026-03-14', 'totalSteps': 8412, 'dailyStepGoal': 8000,
     'totalKilocalories': 2310.0, 'activeKilocalories': 512.0, 'bmrKilocalories': 1798.0,
     'restingHeartRate': 52, 'currentDayRestingHeartRate': 51, 'minHeartRate': 47, 'maxHeartRate': 151,
     'includesWellnessData': True, 'totalDistanceMeters': 6520},
    {'userProfilePK': USER, 'calendarDate': '2026-03-15', 'totalSteps': 10230, 'activeKilocalories': 640.5,
     'restingHeartRate': 53, 'includesWellnessData': True},
    # A day the watch sent nothing: Garmin writes its totals as zeros.
    {'userProfilePK': USER, 'calendarDate': '2026-03-16', 'totalSteps': 0, 'activeKilocalories': 0.0,
     'includesWellnessData': False},
    {'hydration': {'calendarDate': '2026-03-14', 'valueInML': 1500.0, 'goalInML': 2000.0}},
]

ACTIVITIES = [{'summarizedActivitiesExport': [
    {'activityId': 1900000001, 'name': 'Morning Run', 'activityType': 'running', 'startTimeGmt': 1773558000000,
     'duration': 1800000.0, 'distance': 520000.0, 'avgHr': 148, 'maxHr': 171, 'calories': 1450.0}]}]

PROFILE = {'userName': 'ana@example.com', 'firstName': 'Ana', 'gender': 'FEMALE'}


def uploads():
    """The uploads' zip: the scale's and the watch's FIT files under the names Garmin Connect gives uploads."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w') as archive:
        entry(archive, 'ana@example.com_190000000101.fit', (FIXTURES / 'GARMIN/Weight/W3E01234.FIT').read_bytes())
        entry(archive, 'ana@example.com_190000000102.fit', (FIXTURES / 'GARMIN/Sleep/S3E01234.FIT').read_bytes())
    return buffer.getvalue()


def main():
    path = FIXTURES.parent / 'garmin-connect' / 'garmin-export.zip'
    path.parent.mkdir(exist_ok=True)
    with zipfile.ZipFile(path, 'w') as archive:
        entry(archive, 'DI_CONNECT/DI-Connect-Aggregator/UDSFile_2026-03-01_2026-06-09.json', as_json(DAYS))
        entry(archive, 'DI_CONNECT/DI-Connect-Fitness/ana@example.com_0_summarizedActivities.json', as_json(ACTIVITIES))
        entry(archive, 'DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip', uploads())
        entry(archive, 'DI_CONNECT/DI-Connect-User/user_profile.json', as_json(PROFILE))
        entry(archive, f'DI_CONNECT/DI-Connect-Wellness/2026-03-01_2026-06-09_{USER}_sleepData.json', as_json(SLEEP))
        entry(archive, f'DI_CONNECT/DI-Connect-Wellness/{USER}_userBioMetrics.json', as_json(BIOMETRICS))
    print(path.relative_to(FIXTURES.parents[1]))


if __name__ == '__main__':
    main()
