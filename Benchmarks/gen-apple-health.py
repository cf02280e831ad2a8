#!/usr/bin/env python3
"""Write a realistic Apple Health export.xml of about a given size, for benchmarks and manual tests.

Usage: gen-apple-health.py OUTPUT SIZE [--seed N] [--zip]
  SIZE like 1G, 200M, 50K or a plain byte count. With --zip, OUTPUT is an export.zip holding
  apple_health_export/export.xml, as the Health app makes it.

The file looks like a few years of an Apple Watch wearer's export: the real DOCTYPE with its internal
subset, the Me element, then day after day of records of ~25 types (heart rate, steps, distance,
active and basal energy, stand and exercise time, audio exposure, sleep, HRV with its beat-to-beat
metadata lists, weigh-ins, food with Correlations), with metadata entries, Workouts with events,
statistics and routes, and an ActivitySummary per day. Only the Python 3 standard library is used.
"""
import argparse
import datetime
import io
import os
import random
import sys
import zipfile

DOCTYPE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents           CDATA #IMPLIED
  activeEnergyBurned       CDATA #IMPLIED
  activeEnergyBurnedGoal   CDATA #IMPLIED
  activeEnergyBurnedUnit   CDATA #IMPLIED
>
]>
"""

WATCH = "Apple Watch"
PHONE = "Jörg&apos;s iPhone"
WATCH_DEVICE = ("&lt;&lt;HKDevice: 0x28{:07x}&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
                "hardware:Watch6,2, software:10.1&gt;")
PHONE_DEVICE = ("&lt;&lt;HKDevice: 0x28{:07x}&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, "
                "hardware:iPhone14,2, software:17.1&gt;")

# (type, unit, records per day, value generator, source)
QUANTITIES = [
    ("HKQuantityTypeIdentifierHeartRate", "count/min", 600, lambda r: r.randint(52, 150), WATCH),
    ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", 300, lambda r: round(r.uniform(0.05, 9.0), 3), WATCH),
    ("HKQuantityTypeIdentifierBasalEnergyBurned", "kcal", 200, lambda r: round(r.uniform(0.9, 12.0), 3), WATCH),
    ("HKQuantityTypeIdentifierStepCount", "count", 120, lambda r: r.randint(5, 900), PHONE),
    ("HKQuantityTypeIdentifierDistanceWalkingRunning", "km", 120, lambda r: round(r.uniform(0.002, 0.6), 5), PHONE),
    ("HKQuantityTypeIdentifierAppleExerciseTime", "min", 40, lambda r: r.randint(1, 5), WATCH),
    ("HKQuantityTypeIdentifierAppleStandTime", "min", 40, lambda r: r.randint(1, 5), WATCH),
    ("HKQuantityTypeIdentifierFlightsClimbed", "count", 15, lambda r: r.randint(1, 4), PHONE),
    ("HKQuantityTypeIdentifierEnvironmentalAudioExposure", "dBASPL", 60, lambda r: round(r.uniform(35, 85), 2), WATCH),
    ("HKQuantityTypeIdentifierHeadphoneAudioExposure", "dBASPL", 20, lambda r: round(r.uniform(50, 80), 2), PHONE),
    ("HKQuantityTypeIdentifierWalkingSpeed", "km/hr", 30, lambda r: round(r.uniform(3, 6), 2), PHONE),
    ("HKQuantityTypeIdentifierWalkingStepLength", "cm", 30, lambda r: r.randint(60, 80), PHONE),
    ("HKQuantityTypeIdentifierWalkingDoubleSupportPercentage", "%", 20, lambda r: round(r.uniform(0.2, 0.35), 3), PHONE),
    ("HKQuantityTypeIdentifierRespiratoryRate", "count/min", 40, lambda r: round(r.uniform(12, 18), 1), WATCH),
    ("HKQuantityTypeIdentifierOxygenSaturation", "%", 10, lambda r: round(r.uniform(0.94, 1.0), 2), WATCH),
    ("HKQuantityTypeIdentifierRestingHeartRate", "count/min", 1, lambda r: r.randint(50, 65), WATCH),
    ("HKQuantityTypeIdentifierWalkingHeartRateAverage", "count/min", 1, lambda r: r.randint(90, 110), WATCH),
    ("HKQuantityTypeIdentifierVO2Max", "mL/min·kg", 0.3, lambda r: round(r.uniform(38, 45), 2), WATCH),
    ("HKQuantityTypeIdentifierDietaryProtein", "g", 4, lambda r: round(r.uniform(5, 40), 1), "MyFitnessPal"),
    ("HKQuantityTypeIdentifierDietaryFatTotal", "g", 4, lambda r: round(r.uniform(5, 40), 1), "MyFitnessPal"),
    ("HKQuantityTypeIdentifierDietaryCarbohydrates", "g", 4, lambda r: round(r.uniform(10, 90), 1), "MyFitnessPal"),
    ("HKQuantityTypeIdentifierDietaryEnergyConsumed", "Cal", 4, lambda r: round(r.uniform(150, 900)), "MyFitnessPal"),
    ("HKQuantityTypeIdentifierBodyMass", "kg", 0.6, lambda r: round(r.uniform(74, 82), 1), "Withings"),
]
SLEEP = ["HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
         "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAwake"]


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().rstrip("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def stamp(t):
    return t.strftime("%Y-%m-%d %H:%M:%S ") + "+0100"


def count_for(rate, rng):
    whole = int(rate)
    return whole + (1 if rng.random() < rate - whole else 0)


def record(out, rng, type_, unit, value, source, start, minutes=1, metadata=()):
    device = (WATCH_DEVICE if source == WATCH else PHONE_DEVICE).format(rng.randrange(1 << 24))
    end = start + datetime.timedelta(minutes=minutes)
    head = (f' <Record type="{type_}" sourceName="{source}" sourceVersion="10.1" device="{device}" '
            f'unit="{unit}" creationDate="{stamp(end)}" startDate="{stamp(start)}" endDate="{stamp(end)}" value="{value}"')
    if not metadata:
        out.write(head + "/>\n")
        return
    out.write(head + ">\n")
    for key, val in metadata:
        out.write(f'  <MetadataEntry key="{key}" value="{val}"/>\n')
    out.write(" </Record>\n")


def day(out, rng, date):
    midnight = datetime.datetime.combine(date, datetime.time())
    for type_, unit, rate, value, source in QUANTITIES:
        n = count_for(rate, rng)
        for _ in range(n):
            start = midnight + datetime.timedelta(seconds=rng.randrange(86_400 - 120))
            metadata = ()
            if source == "Withings":
                metadata = (("HKWasUserEntered", "0"), ("Withings link", "wsc://app/weight?date=x&amp;y=1"))
            elif rng.random() < 0.08:
                metadata = (("HKTimeZone", "Europe/Berlin"), ("HKMetadataKeySyncIdentifier", f"{rng.randrange(1 << 40):x}"))
            record(out, rng, type_, unit, value(rng), source, start, metadata=metadata)
    for _ in range(5):  # HRV with beat-to-beat lists
        start = midnight + datetime.timedelta(seconds=rng.randrange(86_400 - 120))
        device = WATCH_DEVICE.format(rng.randrange(1 << 24))
        out.write(f' <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="{WATCH}" '
                  f'sourceVersion="10.1" device="{device}" unit="ms" creationDate="{stamp(start)}" '
                  f'startDate="{stamp(start)}" endDate="{stamp(start + datetime.timedelta(minutes=1))}" '
                  f'value="{round(rng.uniform(20, 90), 3)}">\n  <HeartRateVariabilityMetadataList>\n')
        for beat in range(60):
            out.write(f'   <InstantaneousBeatsPerMinute bpm="{rng.randint(55, 80)}" time="{beat // 60}:{beat % 60:02d}:01.{rng.randint(10, 99)} AM"/>\n')
        out.write("  </HeartRateVariabilityMetadataList>\n </Record>\n")
    for i in range(20):  # sleep stages
        start = midnight + datetime.timedelta(minutes=15 * i)
        out.write(f' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="{WATCH}" sourceVersion="10.1" '
                  f'creationDate="{stamp(start)}" startDate="{stamp(start)}" '
                  f'endDate="{stamp(start + datetime.timedelta(minutes=15))}" value="{rng.choice(SLEEP)}"/>\n')
    for hour in range(8, 22):
        start = midnight + datetime.timedelta(hours=hour)
        out.write(f' <Record type="HKCategoryTypeIdentifierAppleStandHour" sourceName="{WATCH}" sourceVersion="10.1" '
                  f'creationDate="{stamp(start)}" startDate="{stamp(start)}" '
                  f'endDate="{stamp(start + datetime.timedelta(hours=1))}" value="HKCategoryValueAppleStandHourStood"/>\n')
    if rng.random() < 0.7:
        start = midnight + datetime.timedelta(hours=18)
        end = start + datetime.timedelta(minutes=35)
        out.write(f' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="35" durationUnit="min" '
                  f'sourceName="{WATCH}" sourceVersion="10.1" creationDate="{stamp(end)}" startDate="{stamp(start)}" '
                  f'endDate="{stamp(end)}">\n'
                  f'  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                  f'  <MetadataEntry key="HKWeatherTemperature" value="{rng.randint(40, 80)} degF"/>\n'
                  f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{stamp(start)}" duration="10" durationUnit="min"/>\n'
                  f'  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="{stamp(start)}" '
                  f'endDate="{stamp(end)}" sum="{rng.randint(250, 450)}" unit="kcal"/>\n'
                  f'  <WorkoutRoute sourceName="{WATCH}" sourceVersion="10.1" creationDate="{stamp(end)}" '
                  f'startDate="{stamp(start)}" endDate="{stamp(end)}">\n'
                  f'   <FileReference path="/workout-routes/route_{date.isoformat()}_6.18pm.gpx"/>\n'
                  f'  </WorkoutRoute>\n </Workout>\n')
    start = midnight + datetime.timedelta(hours=12, minutes=30)
    out.write(f' <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="MyFitnessPal" sourceVersion="23.1" '
              f'creationDate="{stamp(start)}" startDate="{stamp(start)}" endDate="{stamp(start)}">\n'
              f'  <MetadataEntry key="meal" value="Lunch"/>\n'
              f'  <Record type="HKQuantityTypeIdentifierDietaryProtein" sourceName="MyFitnessPal" unit="g" '
              f'creationDate="{stamp(start)}" startDate="{stamp(start)}" endDate="{stamp(start)}" value="21"/>\n'
              f' </Correlation>\n')
    out.write(f' <ActivitySummary dateComponents="{date.isoformat()}" activeEnergyBurned="{rng.randint(300, 900)}" '
              f'activeEnergyBurnedGoal="600" activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" '
              f'appleExerciseTime="{rng.randint(5, 70)}" appleExerciseTimeGoal="30" appleStandHours="{rng.randint(6, 14)}" '
              f'appleStandHoursGoal="12"/>\n')


def write_export(out, size, seed):
    rng = random.Random(seed)
    out.write(DOCTYPE)
    out.write('<HealthData locale="de_DE">\n <ExportDate value="2024-03-01 10:00:00 +0100"/>\n')
    out.write(' <Me HKCharacteristicTypeIdentifierDateOfBirth="1984-07-09" '
              'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexMale" '
              'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" '
              'HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" '
              'HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n')
    out.write(' <Record type="HKQuantityTypeIdentifierHeight" sourceName="Health" sourceVersion="17.1" unit="cm" '
              'creationDate="2016-01-01 09:00:00 +0100" startDate="2016-01-01 09:00:00 +0100" '
              'endDate="2016-01-01 09:00:00 +0100" value="181"/>\n')
    date = datetime.date(2016, 1, 1)
    written = 0
    while written < size:
        buffer = io.StringIO()
        day(buffer, rng, date)
        text = buffer.getvalue().encode()
        out.write(text.decode())
        written += len(text)
        date += datetime.timedelta(days=1)
    out.write("</HealthData>\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--zip", action="store_true", help="write an export.zip as the Health app does")
    args = parser.parse_args()
    size = parse_size(args.size)
    if args.zip:
        with zipfile.ZipFile(args.output, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            with archive.open("apple_health_export/export.xml", "w", force_zip64=True) as raw:
                with io.TextIOWrapper(raw, encoding="utf-8") as out:
                    write_export(out, size, args.seed)
    else:
        with open(args.output, "w", encoding="utf-8", buffering=1 << 20) as out:
            write_export(out, size, args.seed)
    print(f"{args.output}: {os.path.getsize(args.output) / (1 << 20):.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
