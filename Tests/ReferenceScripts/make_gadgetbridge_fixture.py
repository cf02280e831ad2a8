#!/usr/bin/env python3
# Writes Tests/ReferenceScripts/gadgetbridge-fixture.db, a Gadgetbridge "Export database" file for the import
# tests: Python's sqlite3 alone, no hmon code. The tables are created as Gadgetbridge's greenDAO makes them
# from GBDaoGenerator.java (schema 92): an entity's camelCase properties become UPPER_SNAKE columns, activity
# samples (AbstractActivitySample) have TIMESTAMP in seconds, time samples (AbstractTimeSample) in
# milliseconds, and both have the primary key (TIMESTAMP, DEVICE_ID). Two device families (a Xiaomi band,
# a Garmin watch) and a Mi scale, a few days of samples, and tables hmon does not read.
# Run: python3 Tests/ReferenceScripts/make_gadgetbridge_fixture.py
import os, sqlite3
from datetime import datetime, timezone

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gadgetbridge-fixture.db")

def s(iso):   # seconds since the epoch of a UTC time, as activity samples keep it
    return int(datetime.fromisoformat(iso).replace(tzinfo=timezone.utc).timestamp())

def ms(iso):  # milliseconds, as time samples keep it
    return s(iso) * 1000

def sample_table(name, columns, seconds):
    # greenDAO's CREATE TABLE for a sample entity: the common properties, the entity's own, the composite key.
    ts = '"TIMESTAMP" INTEGER NOT NULL ,'
    common = ts + '"DEVICE_ID" INTEGER NOT NULL ,"USER_ID" INTEGER NOT NULL ,'
    own = "".join('"%s" %s,' % c for c in columns)
    return ('CREATE TABLE "%s" (%s%sPRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ) ON CONFLICT REPLACE) WITHOUT ROWID;'
            % (name, common, own))

def device_tables(db):
    # The DEVICE and DEVICE_ATTRIBUTES tables, as greenDAO creates them: how hmon tells Gadgetbridge's file.
    db.execute('CREATE TABLE "DEVICE" ("_id" INTEGER PRIMARY KEY ,"NAME" TEXT NOT NULL ,"MANUFACTURER" TEXT NOT NULL ,'
               '"IDENTIFIER" TEXT NOT NULL UNIQUE ,"TYPE" INTEGER NOT NULL ,"TYPE_NAME" TEXT NOT NULL ,"MODEL" TEXT,'
               '"ALIAS" TEXT,"PARENT_FOLDER" TEXT);')
    db.execute('CREATE TABLE "DEVICE_ATTRIBUTES" ("_id" INTEGER PRIMARY KEY ,"FIRMWARE_VERSION1" TEXT NOT NULL ,'
               '"FIRMWARE_VERSION2" TEXT,"VALID_FROM_UTC" INTEGER,"VALID_TO_UTC" INTEGER,"DEVICE_ID" INTEGER NOT NULL ,'
               '"VOLATILE_IDENTIFIER" TEXT);')

ACTIVITY = {  # addCommonActivitySampleProperties + the entity's properties
    "MI_BAND_ACTIVITY_SAMPLE": [("RAW_INTENSITY", "INTEGER NOT NULL "), ("STEPS", "INTEGER NOT NULL "),
                                ("RAW_KIND", "INTEGER NOT NULL "), ("HEART_RATE", "INTEGER NOT NULL ")],
    "HUAMI_EXTENDED_ACTIVITY_SAMPLE": [("RAW_INTENSITY", "INTEGER NOT NULL "), ("STEPS", "INTEGER NOT NULL "),
                                       ("RAW_KIND", "INTEGER NOT NULL "), ("HEART_RATE", "INTEGER NOT NULL "),
                                       ("UNKNOWN1", "INTEGER"), ("SLEEP", "INTEGER"), ("DEEP_SLEEP", "INTEGER"),
                                       ("REM_SLEEP", "INTEGER")],
    "XIAOMI_ACTIVITY_SAMPLE": [("RAW_INTENSITY", "INTEGER NOT NULL "), ("STEPS", "INTEGER NOT NULL "),
                               ("RAW_KIND", "INTEGER NOT NULL "), ("HEART_RATE", "INTEGER NOT NULL "),
                               ("STRESS", "INTEGER"), ("SPO2", "INTEGER")],
    "GARMIN_ACTIVITY_SAMPLE": [("RAW_INTENSITY", "INTEGER NOT NULL "), ("STEPS", "INTEGER NOT NULL "),
                               ("RAW_KIND", "INTEGER NOT NULL "), ("HEART_RATE", "INTEGER NOT NULL "),
                               ("DISTANCE_CM", "INTEGER NOT NULL "), ("ACTIVE_CALORIES", "INTEGER NOT NULL ")],
    "PEBBLE_HEALTH_ACTIVITY_SAMPLE": [("RAW_PEBBLE_HEALTH_DATA", "BLOB"), ("RAW_INTENSITY", "INTEGER NOT NULL "),
                                      ("STEPS", "INTEGER NOT NULL "), ("HEART_RATE", "INTEGER NOT NULL ")],
}
TIME = {  # addCommonTimeSampleProperties + the entity's properties
    "XIAOMI_SLEEP_TIME_SAMPLE": [("WAKEUP_TIME", "INTEGER"), ("IS_AWAKE", "INTEGER"), ("TOTAL_DURATION", "INTEGER"),
                                 ("DEEP_SLEEP_DURATION", "INTEGER"), ("LIGHT_SLEEP_DURATION", "INTEGER"),
                                 ("REM_SLEEP_DURATION", "INTEGER"), ("AWAKE_DURATION", "INTEGER")],
    "XIAOMI_SLEEP_STAGE_SAMPLE": [("STAGE", "INTEGER")],
    "GARMIN_SLEEP_STAGE_SAMPLE": [("STAGE", "INTEGER NOT NULL ")],
    "GARMIN_HEART_RATE_RESTING_SAMPLE": [("HEART_RATE", "INTEGER NOT NULL ")],
    "GARMIN_HRV_SUMMARY_SAMPLE": [("WEEKLY_AVERAGE", "INTEGER"), ("LAST_NIGHT_AVERAGE", "INTEGER"),
                                  ("LAST_NIGHT5_MIN_HIGH", "INTEGER"), ("BASELINE_LOW_UPPER", "INTEGER"),
                                  ("BASELINE_BALANCED_LOWER", "INTEGER"), ("BASELINE_BALANCED_UPPER", "INTEGER"),
                                  ("STATUS_NUM", "INTEGER")],
    "GARMIN_SPO2_SAMPLE": [("SPO2", "INTEGER NOT NULL ")],
    "GARMIN_STRESS_SAMPLE": [("STRESS", "INTEGER NOT NULL ")],
    "HUAMI_SPO2_SAMPLE": [("TYPE_NUM", "INTEGER NOT NULL "), ("SPO2", "INTEGER NOT NULL ")],
    "HUAMI_HEART_RATE_RESTING_SAMPLE": [("UTC_OFFSET", "INTEGER NOT NULL "), ("HEART_RATE", "INTEGER NOT NULL ")],
    "MI_SCALE_WEIGHT_SAMPLE": [("WEIGHT_KG", "REAL NOT NULL ")],
}

if os.path.exists(OUT):
    os.remove(OUT)
db = sqlite3.connect(OUT)
db.execute('CREATE TABLE android_metadata (locale TEXT)')
db.execute("INSERT INTO android_metadata VALUES ('en_GB')")
db.execute('CREATE TABLE "USER" ("_id" INTEGER PRIMARY KEY ,"NAME" TEXT NOT NULL ,"BIRTHDAY" INTEGER NOT NULL ,'
           '"GENDER" INTEGER NOT NULL );')
device_tables(db)
for name, columns in ACTIVITY.items():
    db.execute(sample_table(name, columns, True))
for name, columns in TIME.items():
    db.execute(sample_table(name, columns, False))

db.execute("INSERT INTO USER VALUES (1, 'Ana', ?, 0)", (ms("1990-05-04T00:00:00"),))
BAND, WATCH, SCALE = 1, 2, 3
db.executemany("INSERT INTO DEVICE VALUES (?,?,?,?,?,?,?,?,?)", [
    (BAND, "Xiaomi Smart Band 8", "Xiaomi", "C8:0F:10:AA:BB:01", 0, "MIBAND8", None, "Ana's band", None),
    (WATCH, "Forerunner 255", "Garmin", "D4:36:39:CC:DD:02", 0, "GARMIN_FORERUNNER_255", None, None, None),
    (SCALE, "MI SCALE2", "Xiaomi", "C8:0F:10:EE:FF:03", 0, "MISCALE2", None, "", None),
])
db.execute("INSERT INTO DEVICE_ATTRIBUTES VALUES (1, '2.1.0', NULL, ?, NULL, 1, NULL)", (ms("2026-11-01T00:00:00"),))

# The scale: three weigh-ins and a reading of 0 kg (nothing on the scale), which is skipped.
db.executemany("INSERT INTO MI_SCALE_WEIGHT_SAMPLE VALUES (?,?,1,?)", [
    (ms("2026-11-16T07:00:00"), SCALE, 70.4), (ms("2026-11-17T07:05:00"), SCALE, 70.1),
    (ms("2026-11-18T07:02:00"), SCALE, 69.9), (ms("2026-11-18T07:03:00"), SCALE, 0.0)])

# The band's night, 23:00 to 07:00: each stage sample starts a stretch that lasts to the next one, the last
# to the wake-up time (XiaomiSampleProvider's overlay). Stages as SleepDetailsParser.decodeStage stores them:
# 2 deep, 3 light, 4 REM, 5 awake.
db.execute("INSERT INTO XIAOMI_SLEEP_TIME_SAMPLE VALUES (?,?,1,?,0,465,60,300,105,15)",
           (ms("2026-11-16T23:00:00"), BAND, ms("2026-11-17T07:00:00")))
db.executemany("INSERT INTO XIAOMI_SLEEP_STAGE_SAMPLE VALUES (?,?,1,?)", [
    (ms("2026-11-16T23:00:00"), BAND, 3), (ms("2026-11-16T23:30:00"), BAND, 2), (ms("2026-11-17T00:30:00"), BAND, 3),
    (ms("2026-11-17T02:00:00"), BAND, 4), (ms("2026-11-17T02:45:00"), BAND, 5), (ms("2026-11-17T03:00:00"), BAND, 3),
    (ms("2026-11-17T06:00:00"), BAND, 4)])

# The watch's night: each sample is the stage of the stretch that ends at its time (GarminActivitySampleProvider
# reads them as upper bounds), the first marking where the night starts. FIT's sleep levels: 1 awake, 2 light,
# 3 deep, 4 REM.
db.executemany("INSERT INTO GARMIN_SLEEP_STAGE_SAMPLE VALUES (?,?,1,?)", [
    (ms("2026-11-17T22:30:00"), WATCH, 1), (ms("2026-11-17T23:00:00"), WATCH, 2), (ms("2026-11-18T00:00:00"), WATCH, 3),
    (ms("2026-11-18T01:30:00"), WATCH, 2), (ms("2026-11-18T02:00:00"), WATCH, 4), (ms("2026-11-18T02:10:00"), WATCH, 1),
    (ms("2026-11-18T05:00:00"), WATCH, 2), (ms("2026-11-18T06:00:00"), WATCH, 4)])

db.executemany("INSERT INTO GARMIN_HEART_RATE_RESTING_SAMPLE VALUES (?,?,1,?)", [
    (ms("2026-11-17T00:00:00"), WATCH, 52), (ms("2026-11-18T00:00:00"), WATCH, 50)])
db.execute("INSERT INTO GARMIN_HRV_SUMMARY_SAMPLE VALUES (?,?,1,50,48,71,40,44,60,1)", (ms("2026-11-18T06:00:00"), WATCH))
db.executemany("INSERT INTO GARMIN_SPO2_SAMPLE VALUES (?,?,1,?)", [
    (ms("2026-11-18T03:00:00"), WATCH, 96), (ms("2026-11-18T04:00:00"), WATCH, 0)])
db.executemany("INSERT INTO GARMIN_STRESS_SAMPLE VALUES (?,?,1,?)", [
    (ms("2026-11-17T09:00:00"), WATCH, 25), (ms("2026-11-17T09:03:00"), WATCH, 31), (ms("2026-11-17T09:06:00"), WATCH, 28)])

# A minute each: the watch walks 100 steps a minute from 08:00 to 08:04 (5 kcal a minute, heart rate 90–94);
# the band records 60 and 70 steps at noon, a heart rate of 72, then 255 and 0 (Gadgetbridge's "no reading").
db.executemany("INSERT INTO GARMIN_ACTIVITY_SAMPLE VALUES (?,?,1,?,?,?,?,?,?)", [
    (s("2026-11-17T08:0%d:00" % i), WATCH, 40, 100, 1, 90 + i, 8000, 5) for i in range(5)])
db.executemany("INSERT INTO XIAOMI_ACTIVITY_SAMPLE VALUES (?,?,1,?,?,?,?,?,?)", [
    (s("2026-11-17T12:00:00"), BAND, 30, 60, 1, 72, None, None),
    (s("2026-11-17T12:01:00"), BAND, 30, 70, 1, 255, None, None),
    (s("2026-11-17T12:02:00"), BAND, 0, 0, 1, 0, None, None)])

# A device family hmon does not read.
db.executemany("INSERT INTO PEBBLE_HEALTH_ACTIVITY_SAMPLE VALUES (?,?,1,NULL,10,12,0)", [
    (s("2026-11-16T10:00:00"), BAND), (s("2026-11-16T10:01:00"), BAND)])

db.commit()
db.execute("VACUUM")
db.close()
print(OUT)

# A Gadgetbridge database whose weight table lacks the column hmon reads (WEIGHT_KG named otherwise, as a
# hand-edited file or a future schema might have it): the import must refuse it whole.
BROKEN = os.path.join(os.path.dirname(OUT), "gadgetbridge-missing-column.db")
if os.path.exists(BROKEN):
    os.remove(BROKEN)
db = sqlite3.connect(BROKEN)
device_tables(db)
db.execute(sample_table("MI_SCALE_WEIGHT_SAMPLE", [("WEIGHT", "REAL NOT NULL ")], False))
db.execute(sample_table("GARMIN_SPO2_SAMPLE", [("SPO2", "INTEGER NOT NULL ")], False))
db.execute("INSERT INTO DEVICE VALUES (1, 'MI SCALE2', 'Xiaomi', 'C8:0F:10:EE:FF:03', 0, 'MISCALE2', NULL, NULL, NULL)")
db.execute("INSERT INTO GARMIN_SPO2_SAMPLE VALUES (?,1,1,97)", (ms("2026-11-18T03:00:00"),))
db.execute("INSERT INTO MI_SCALE_WEIGHT_SAMPLE VALUES (?,1,1,70.4)", (ms("2026-11-16T07:00:00"),))
db.commit()
db.execute("VACUUM")
db.close()
print(BROKEN)

# The fixture again with rows no device writes but a damaged or hand-edited file can hold: times at the ends
# of a 64-bit integer, text where a number belongs, a device without a name. The import must skip them,
# saying why, and keep the rest.
ODD = os.path.join(os.path.dirname(OUT), "gadgetbridge-odd-rows.db")
if os.path.exists(ODD):
    os.remove(ODD)
db = sqlite3.connect(OUT)
db.execute("VACUUM INTO ?", (ODD,))
db.close()
db = sqlite3.connect(ODD)
BIG, SMALL = 2**63 - 1, -2**63
db.executemany("INSERT INTO MI_SCALE_WEIGHT_SAMPLE VALUES (?,?,1,?)", [(BIG, SCALE, 70), (SMALL, SCALE, "abc")])
db.executemany("INSERT INTO GARMIN_ACTIVITY_SAMPLE VALUES (?,?,1,0,?,0,999,0,?)", [(BIG, WATCH, BIG, BIG), (SMALL, 99, 5, 1)])
db.execute("INSERT INTO XIAOMI_SLEEP_TIME_SAMPLE VALUES (?,?,1,?,0,0,0,0,0,0)", (BIG - 1000, BAND, SMALL))
db.executemany("INSERT INTO GARMIN_SLEEP_STAGE_SAMPLE VALUES (?,?,1,2)", [(SMALL, WATCH), (SMALL + 1000, WATCH)])
db.execute("UPDATE DEVICE SET NAME = '' WHERE _id = ?", (WATCH,))
db.commit()
db.execute("VACUUM")
db.close()
print(ODD)

# Three more families, whose minutes asleep are marked in their activity samples (each family's sample
# provider in Gadgetbridge reads them so): a Mi Band 3 (MiBand2SampleProvider: kind 9 light, 11 deep), an
# Amazfit Bip 5 (HuamiExtendedSampleProvider: kind 120 asleep; REM when REM_SLEEP & 127 > 55, else deep when
# DEEP_SLEEP & 127 > 42, else light) and a Huawei band (HuaweiSampleProvider: a row from TIMESTAMP to
# OTHER_TIMESTAMP, stored with an end marker the other way round; kind 6 light, 7 deep).
MINUTES = os.path.join(os.path.dirname(OUT), "gadgetbridge-minute-sleep.db")
if os.path.exists(MINUTES):
    os.remove(MINUTES)
db = sqlite3.connect(MINUTES)
device_tables(db)
for name in ["MI_BAND_ACTIVITY_SAMPLE", "HUAMI_EXTENDED_ACTIVITY_SAMPLE"]:
    db.execute(sample_table(name, ACTIVITY[name], True))
# addHuaweiActivitySample: its primary key also holds OTHER_TIMESTAMP and SOURCE.
db.execute('CREATE TABLE "HUAWEI_ACTIVITY_SAMPLE" ("TIMESTAMP" INTEGER NOT NULL ,"DEVICE_ID" INTEGER NOT NULL ,'
           '"USER_ID" INTEGER NOT NULL ,"OTHER_TIMESTAMP" INTEGER NOT NULL ,"SOURCE" INTEGER NOT NULL ,'
           '"RAW_KIND" INTEGER NOT NULL ,"RAW_INTENSITY" INTEGER NOT NULL ,"STEPS" INTEGER NOT NULL ,'
           '"CALORIES" INTEGER NOT NULL ,"DISTANCE" INTEGER NOT NULL ,"SPO" INTEGER NOT NULL ,"HEART_RATE" INTEGER NOT NULL ,'
           'PRIMARY KEY ("TIMESTAMP" ,"DEVICE_ID" ,"OTHER_TIMESTAMP" ,"SOURCE" ) ON CONFLICT REPLACE) WITHOUT ROWID;')
MIBAND, AMAZFIT, HUAWEI = 1, 2, 3
db.executemany("INSERT INTO DEVICE VALUES (?,?,?,?,?,?,?,?,?)", [
    (MIBAND, "Mi Band 3", "Xiaomi", "E1:2A:3B:00:00:01", 0, "MIBAND3", None, None, None),
    (AMAZFIT, "Amazfit Bip 5", "Huami", "E1:2A:3B:00:00:02", 0, "AMAZFITBIP5", None, None, None),
    (HUAWEI, "HUAWEI Band 8", "Huawei", "E1:2A:3B:00:00:03", 0, "HUAWEIBAND8", None, None, None),
])

def minutes(start, count):   # the seconds of `count` minutes from `start`
    return [s(start) + 60 * i for i in range(count)]

# The Mi Band's night: 23:00–00:00 light, 00:00–01:00 deep, 01:00–01:30 light, then awake (kind 1).
rows = [(t, MIBAND, 20, 0, 9, 55) for t in minutes("2026-11-20T23:00:00", 60)]
rows += [(t, MIBAND, 5, 0, 11, 50) for t in minutes("2026-11-21T00:00:00", 60)]
rows += [(t, MIBAND, 20, 0, 9, 52) for t in minutes("2026-11-21T01:00:00", 30)]
rows += [(s("2026-11-21T01:30:00"), MIBAND, 60, 12, 1, 70)]
db.executemany("INSERT INTO MI_BAND_ACTIVITY_SAMPLE VALUES (?,?,1,?,?,?,?)", rows)

# The Amazfit's night: 22:00–23:00 light (deep 10), 23:00–23:30 deep (178 & 127 = 50 > 42), 23:30–23:50 REM
# (188 & 127 = 60 > 55, over a deep figure too), 23:50–23:55 light (deep 42 and REM 55 are not above their
# thresholds), then awake.
rows = [(t, AMAZFIT, 20, 0, 120, 55, 0, 30, 10, 0) for t in minutes("2026-11-21T22:00:00", 60)]
rows += [(t, AMAZFIT, 5, 0, 120, 50, 0, 30, 178, 0) for t in minutes("2026-11-21T23:00:00", 30)]
rows += [(t, AMAZFIT, 5, 0, 120, 50, 0, 30, 178, 188) for t in minutes("2026-11-21T23:30:00", 20)]
rows += [(t, AMAZFIT, 5, 0, 120, 50, 0, 30, 42, 55) for t in minutes("2026-11-21T23:50:00", 5)]
rows += [(s("2026-11-21T23:55:00"), AMAZFIT, 60, 40, 1, 80, 0, 0, 0, 0)]
db.executemany("INSERT INTO HUAMI_EXTENDED_ACTIVITY_SAMPLE VALUES (?,?,1,?,?,?,?,?,?,?,?)", rows)

# The Huawei band: a walk's minute at noon (100 steps), then a night of two blocks, 22:00–23:30 light and
# 23:30–01:00 deep, each with its end marker (steps and the rest -1, Gadgetbridge's NOT_MEASURED).
def huawei(start, end, source, kind, steps, heart):
    return [(s(start), HUAWEI, s(end), source, kind, 1, steps, 5, 80, -1, heart),
            (s(end), HUAWEI, s(start), source, kind, 1, -1, -1, -1, -1, -1)]
rows = huawei("2026-11-22T12:00:00", "2026-11-22T12:01:00", 0x0b, -1, 100, 88)
rows += huawei("2026-11-22T22:00:00", "2026-11-22T23:30:00", 0x0d, 6, -1, -1)
rows += huawei("2026-11-22T23:30:00", "2026-11-23T01:00:00", 0x0d, 7, -1, -1)
db.executemany("INSERT INTO HUAWEI_ACTIVITY_SAMPLE VALUES (?,?,1,?,?,?,?,?,?,?,?,?)", rows)
db.commit()
db.execute("VACUUM")
db.close()
print(MINUTES)
