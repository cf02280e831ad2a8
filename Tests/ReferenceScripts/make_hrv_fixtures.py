#!/usr/bin/env python3
# Writes the HRV reference fixtures: pip install hrv-analysis==1.0.6 (scipy, numpy). Not needed by the tests.
import sys, types, math
sys.modules['nolds'] = types.ModuleType('nolds')  # nolds 0.6 fails to import its datasets; hmon needs none of it
import numpy as np, scipy, hrvanalysis
from importlib.metadata import version
from hrvanalysis import remove_outliers, remove_ectopic_beats, interpolate_nan_values, get_time_domain_features, get_frequency_domain_features

def series(seed, seconds, ectopics, artefacts):
    rng = np.random.default_rng(seed)
    rr = []; t = 0.0
    while t < seconds:
        v = 850 + 40*math.sin(2*math.pi*0.1*t) + 30*math.sin(2*math.pi*0.25*t) + 15*math.sin(2*math.pi*0.02*t) + rng.normal(0, 12)
        rr.append(round(v)); t += v/1000
    for i in ectopics:               # a premature beat and its compensatory pause
        s = rr[i] + rr[i+1]; rr[i] = round(0.62*rr[i]); rr[i+1] = s - rr[i]
    for i in artefacts:              # a missed beat: two intervals counted as one
        rr[i] = rr[i] + rr[i+1]; del rr[i+1]
    return [int(x) for x in rr]

def malik(rr):
    # Malik's rule as published (Malik et al. 1989): an interval outside 300–2000 ms, or differing by more
    # than 20 % from the last accepted interval, is not a normal-to-normal interval. hrv-analysis 1.0.6's
    # remove_ectopic_beats compares with the previous *raw* interval and keeps the compensatory pause
    # unchecked, so it is not used for the cleaning; its pandas linear interpolation fills the gaps.
    kept = []; last = None; removed = 0
    for x in rr:
        if 300 <= x <= 2000 and (last is None or abs(x - last) <= 0.2 * last):
            kept.append(float(x)); last = x
        else:
            kept.append(np.nan); removed += 1
    return interpolate_nan_values(kept, interpolation_method="linear"), removed

def reference(rr):
    nn, removed = malik(rr)
    td = get_time_domain_features(nn)
    out = dict(removed=removed,
               meanRR=td['mean_nni'], meanHR=td['mean_hr'], sdnn=td['sdnn'], rmssd=td['rmssd'], pnn50=td['pnni_50'])
    if sum(nn)/1000 >= 120:
        fd = get_frequency_domain_features(nn, method="welch", sampling_frequency=4, interpolation_method="linear",
                                           vlf_band=(0.0033, 0.04), lf_band=(0.04, 0.15), hf_band=(0.15, 0.40))
        out.update(vlf=fd['vlf'], lf=fd['lf'], hf=fd['hf'], total=fd['total_power'], lfhf=fd['lf_hf_ratio'])
    # Baevsky's stress index by hand (no pip package computes it): 50 ms bins from 0 ms, Mo the modal bin's
    # centre in s, AMo its share of intervals in %, MxDMn the range in s.
    nn_arr = np.array(nn); bins = np.floor(nn_arr/50).astype(int); vals, counts = np.unique(bins, return_counts=True)
    mode_bin = vals[np.argmax(counts)]; mo = (mode_bin*50 + 25)/1000; amo = 100*counts.max()/len(nn_arr)
    out['si'] = amo / (2*mo*((nn_arr.max()-nn_arr.min())/1000))
    return out, nn

fixtures = [("fiveMinutes", series(13, 300, [60, 180, 301], [240]), ),
            ("ninetySeconds", series(7, 90, [40], []), )]
print(f"// Reference figures: hrv-analysis {version('hrv-analysis')} (numpy {np.__version__}, scipy {scipy.__version__}),")
print("// Malik's rule (300–2000 ms, 20 % from the last accepted interval; see malik() in the script) →")
print("// interpolate_nan_values(linear) → get_time_domain_features / get_frequency_domain_features(welch, 4 Hz, linear, VLF 0.0033–0.04,")
print("// LF 0.04–0.15, HF 0.15–0.4). Baevsky's stress index by numpy by hand (50 ms bins from 0 ms).")
print("// Made by `python3 Tests/ReferenceScripts/make_hrv_fixtures.py > Tests/HealthCoreTests/HRVFixtures.swift`")
print("// the RR series are seeded and synthetic.")
print("/// Seeded RR series with ectopic beats and a missed beat, and what hrv-analysis figures from them.")
print("enum HRVFixtures {")
print("    struct Reference {")
print("        let removed: Int")
print("        let meanRR, meanHR, sdnn, rmssd, pnn50: Double")
print("        var vlf = 0.0, lf = 0.0, hf = 0.0, total = 0.0, lfhf = 0.0")
print("        let si: Double")
print("    }")
for name, rr in fixtures:
    ref, nn = reference(rr)
    print(f"    static let {name}: [Double] = [" + ", ".join(str(x) for x in rr) + "]")
    print(f"    /// {len(rr)} intervals, {sum(rr)/1000:.1f} s")
    print(f"    static let {name}Reference = Reference(" + ", ".join(f"{k}: {float(v)!r}" if k!='removed' else f"{k}: {v}" for k, v in ref.items()) + ")")
print("}")
