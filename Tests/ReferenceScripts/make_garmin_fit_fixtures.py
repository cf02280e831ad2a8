#!/usr/bin/env python3
"""Writes the Garmin FIT fixtures under Tests/Fixtures/garmin/ with fit-tool, a FIT writer hmon did not
write (pinned in Tests/ThirdPartyClients/requirements.txt), laid out as a watch's GARMIN/ folder shows
over USB. Run from the package root with the private environment's Python:

    .build/third-party-clients/bin/python Tests/ReferenceScripts/make_garmin_fit_fixtures.py

The files are committed; this script is how they were made. Times are fixed, so a run writes the same bytes.
"""
import datetime
from pathlib import Path

from fit_tool.endian import Endian
from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.blood_pressure_message import BloodPressureMessage
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.hrv_status_summary_message import HrvStatusSummaryMessage
from fit_tool.profile.messages.monitoring_hr_data_message import MonitoringHrDataMessage
from fit_tool.profile.messages.monitoring_info_message import MonitoringInfoMessage
from fit_tool.profile.messages.monitoring_message import MonitoringMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.sleep_level_message import SleepLevelMessage
from fit_tool.profile.messages.weight_scale_message import WeightScaleMessage
from fit_tool.profile.profile_type import ActivityType, EventType, FileType, Manufacturer, SleepLevel

ROOT = Path(__file__).resolve().parents[2] / 'Tests' / 'Fixtures' / 'garmin' / 'GARMIN'


def ms(text):
    """fit-tool takes times in ms since the Unix epoch."""
    return round(datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)


def file_id(file_type, product, serial, endian=Endian.LITTLE):
    """`file_type` a FileType, or a number fit-tool's FileType (like Garmin's published profile) does not name."""
    message = FileIdMessage(endian=endian)
    if isinstance(file_type, int) and not isinstance(file_type, FileType):
        message.type = FileType.WEIGHT
        message.get_field(0).set_value(0, file_type, None)
    else:
        message.type = file_type
    message.manufacturer = Manufacturer.GARMIN.value
    message.product = product
    message.serial_number = serial
    message.time_created = ms('2026-03-14T06:00:00')
    return message


def write(path, messages):
    builder = FitFileBuilder(auto_define=True)
    builder.add_all(messages)
    path.parent.mkdir(parents=True, exist_ok=True)
    builder.build().to_file(str(path))
    print(path.relative_to(ROOT.parent))


def weight_scale():
    readings = []
    for when, weight, fat, water, bone, muscle in [
        ('2026-03-14T06:40:00', 72.45, 21.3, 55.2, 3.1, 33.4),
        ('2026-03-15T06:42:10', 72.1, 21.0, 55.6, 3.1, 33.5),
    ]:
        message = WeightScaleMessage()
        message.timestamp = ms(when)
        message.weight = weight
        message.percent_fat = fat
        message.percent_hydration = water
        message.bone_mass = bone
        message.muscle_mass = muscle
        message.bmi = 23.1  # not kept: hmon works it out from the profile's height
        readings.append(message)
    alone = WeightScaleMessage()  # a weigh-in with the weight alone (bare feet not on the electrodes)
    alone.timestamp = ms('2026-03-16T07:01:00')
    alone.weight = 71.9
    readings.append(alone)
    write(ROOT / 'Weight' / 'W3E01234.FIT', [file_id(FileType.WEIGHT, 2429, 3912345678)] + readings)


def blood_pressure():
    # Big-endian throughout, so the fixtures prove both byte orders.
    big = Endian.BIG
    first = BloodPressureMessage(endian=big)
    first.timestamp = ms('2026-03-14T07:30:00')
    first.systolic_pressure = 128
    first.diastolic_pressure = 82
    first.mean_arterial_pressure = 97  # not kept: hmon keeps the two figures the cuff measured
    first.heart_rate = 64
    second = BloodPressureMessage(endian=big)
    second.timestamp = ms('2026-03-14T19:05:00')
    second.systolic_pressure = 121
    second.diastolic_pressure = 79
    write(ROOT / 'BloodPrs' / 'B3E01234.FIT', [file_id(FileType.BLOOD_PRESSURE, 3148, 3987654321, big), first, second])


def hrv_status():
    nights = []
    for when, night, week in [('2026-03-14T05:10:00', 48.5, 51.0), ('2026-03-15T05:20:00', 52.25, 51.25)]:
        message = HrvStatusSummaryMessage()
        message.timestamp = ms(when)
        message.last_night_average = night
        message.weekly_average = week  # not kept: a mean of nights hmon has one by one
        nights.append(message)
    write(ROOT / 'HRVStatus' / 'H3E01234.FIT', [file_id(68, 4315, 3455555555)] + nights)  # HRV status: type 68


def sleep():
    """A night as a watch writes it: the sleep event's start (event 74, which the published profile does not
    name), then `sleep_level` messages, each stamped at the end of the stretch it names."""
    start = EventMessage()
    start.timestamp = ms('2026-03-13T22:50:00')
    start.get_field(0).set_value(0, 74, None)  # event 74: sleep
    start.event_type = EventType.START
    levels = []
    for when, level in [
        ('2026-03-13T23:00:00', SleepLevel.AWAKE),   # 22:50-23:00 awake
        ('2026-03-14T00:30:00', SleepLevel.LIGHT),   # 23:00-00:30 light
        ('2026-03-14T01:30:00', SleepLevel.DEEP),    # 00:30-01:30 deep
        ('2026-03-14T02:30:00', SleepLevel.REM),     # 01:30-02:30 REM
        ('2026-03-14T02:34:00', SleepLevel.AWAKE),   # 02:30-02:34 awake
        ('2026-03-14T03:00:00', SleepLevel.UNMEASURABLE),  # 02:34-03:00 not measured
        ('2026-03-14T05:30:00', SleepLevel.LIGHT),   # 03:00-05:30 light
        ('2026-03-14T06:10:00', SleepLevel.REM),     # 05:30-06:10 REM
        ('2026-03-14T06:20:00', SleepLevel.AWAKE),   # 06:10-06:20 awake
    ]:
        message = SleepLevelMessage()
        message.timestamp = ms(when)
        message.sleep_level = level
        levels.append(message)
    write(ROOT / 'Sleep' / 'S3E01234.FIT', [file_id(49, 4315, 3455555555), start] + levels)  # sleep: type 49


FIT_EPOCH = 631065600


def fit_seconds(text):
    """A `date_time`: seconds since 1989-12-31 00:00 UTC."""
    return ms(text) // 1000 - FIT_EPOCH


def monitoring():
    """A day and a bit of a watch's monitoring (file type 32, monitoring_b) on a watch an hour ahead of UTC:
    cumulative steps and active kcal per activity type that start again at local midnight, a heart rate a
    minute stamped by `timestamp_16` (the low 16 bits of the time), and the watch's resting heart rate."""
    info = MonitoringInfoMessage()
    info.timestamp = ms('2026-03-13T23:00:00')
    info.get_field(0).set_value(0, fit_seconds('2026-03-13T23:00:00') + 3600, None)  # local_timestamp: UTC+1
    info.resting_metabolic_rate = 1650  # not kept

    def totals(when, activity, steps, kcal, compressed=False):
        message = MonitoringMessage()
        if compressed:
            message.timestamp_16 = fit_seconds(when) & 0xFFFF  # the time's low 16 bits, against the last full one
        else:
            message.timestamp = ms(when)
        message.activity_type = activity
        message.steps = steps  # the `cycles` field, read as steps for walking and running
        message.active_calories = kcal
        return message

    def pulse(when, beats):
        message = MonitoringMessage()
        message.timestamp_16 = fit_seconds(when) & 0xFFFF
        message.heart_rate = beats
        return message

    def resting(when, seven_days, today):
        message = MonitoringHrDataMessage()
        message.timestamp = ms(when)
        message.resting_heart_rate = seven_days
        if today is not None:
            message.current_day_resting_heart_rate = today
        return message

    messages = [
        info,
        totals('2026-03-14T09:00:00', ActivityType.WALKING, 1200, 40),    # 10:00 local on the 14th
        pulse('2026-03-14T09:01:00', 62),
        pulse('2026-03-14T09:02:00', 64),
        totals('2026-03-14T10:00:00', ActivityType.RUNNING, 3000, 210),   # a run: its own count
        resting('2026-03-14T12:00:00', 58, 57),
        totals('2026-03-14T17:00:00', ActivityType.WALKING, 5400, 150),
        resting('2026-03-14T22:00:00', 58, 56),                           # the day's last figure: 56
        totals('2026-03-14T23:00:00', ActivityType.WALKING, 6100, 170),   # local midnight: the 14th's close
        resting('2026-03-14T23:30:00', 57, None),                         # 00:30 on the watch's 15th, no day figure yet: 57
        totals('2026-03-15T07:00:00', ActivityType.WALKING, 800, 25, compressed=True),  # the 15th, from zero again
        pulse('2026-03-15T07:01:00', 70),
    ]
    write(ROOT / 'Monitor' / 'M3E01234.FIT', [file_id(FileType.MONITORING_B, 4315, 3455555555)] + messages)


def later_monitoring():
    """The watch's next monitoring file of its 15th, in a later copy of the folder (`Tests/Fixtures/garmin-later/`):
    more walking (4200 steps, 90 kcal by 13:00 local) and the day's own resting heart rate, 54."""
    info = MonitoringInfoMessage()
    info.timestamp = ms('2026-03-15T08:00:00')
    info.get_field(0).set_value(0, fit_seconds('2026-03-15T08:00:00') + 3600, None)
    walk = MonitoringMessage()
    walk.timestamp = ms('2026-03-15T12:00:00')
    walk.activity_type = ActivityType.WALKING
    walk.steps = 4200
    walk.active_calories = 90
    resting = MonitoringHrDataMessage()
    resting.timestamp = ms('2026-03-15T13:00:00')
    resting.resting_heart_rate = 57
    resting.current_day_resting_heart_rate = 54
    later = ROOT.parents[1] / 'garmin-later' / 'GARMIN'
    path = later / 'Monitor' / 'M3E01235.FIT'
    builder = FitFileBuilder(auto_define=True)
    builder.add_all([file_id(FileType.MONITORING_B, 4315, 3455555555), info, walk, resting])
    path.parent.mkdir(parents=True, exist_ok=True)
    builder.build().to_file(str(path))
    print(path.relative_to(ROOT.parents[1]))


def activity():
    records = []
    for second, heart_rate in [(0, 98), (1, 101), (2, 104)]:
        message = RecordMessage()
        message.timestamp = ms('2026-03-14T17:00:00') + second * 1000
        message.heart_rate = heart_rate
        records.append(message)
    write(ROOT / 'Activity' / 'A3E01234.FIT', [file_id(FileType.ACTIVITY, 4315, 3455555555)] + records)


if __name__ == '__main__':
    weight_scale()
    blood_pressure()
    hrv_status()
    sleep()
    monitoring()
    later_monitoring()
    activity()
