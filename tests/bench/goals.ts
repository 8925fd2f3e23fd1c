/**
 * A bench key's goal and its alarm: the measured value should be at most `max` (every goal so far
 * is a ceiling); past `alarm` the run is a regression that `npm run bench -- --check` fails on.
 * Between the two a key is reported OVER GOAL but does not fail: a shared 2-core machine's noise
 * must not fail CI, a lost speed-up must.
 */
export interface BenchGoal {
  max: number;
  alarm: number;
  unit: string;
}

/** How far a ratio may drift past its goal before it is an alarm (ratios are what noise hits least). */
export const RATIO_ALARM_FACTOR = 1.3;

function ratio(max: number): BenchGoal {
  return { max, alarm: Number((max * RATIO_ALARM_FACTOR).toFixed(3)), unit: 'x' };
}

/**
 * The goals of every bench key (README, Benchmark), from the foundation issue, issue 11 and
 * issue 25. Absolute figures carry their own alarms: a time in ms moves with the machine far more
 * than a ratio, a size hardly at all.
 */
export const BENCH_GOALS: Record<string, BenchGoal> = {
  host_over_raw_p50: ratio(1.25),
  // A difference of well under a millisecond: twice the goal is still far below anything a person notices.
  bridge_minus_raw_p50_ms: { max: 1, alarm: 2, unit: 'ms' },
  concurrent_1000_over_raw: ratio(1.2),
  startup_20_over_raw: ratio(1.1),
  cli_exit_after_output_ms: { max: 250, alarm: 400, unit: 'ms' },
  tools_2000_convert_ms: { max: 20, alarm: 40, unit: 'ms' },
  rss_growth_10k_pct: { max: 10, alarm: 15, unit: '%' },
  ui_filter_2000_ms: { max: 50, alarm: 100, unit: 'ms' },
  thread_1000_open_ms: { max: 300, alarm: 500, unit: 'ms' },
  // Bytes do not jitter: a little room for a dependency's patch release, no more.
  renderer_first_js_kb: { max: 250, alarm: 275, unit: 'KB' },
};

/** One line saying how a measured value stands against its goal and alarm. */
export function verdict(value: number | undefined, goal: BenchGoal): string {
  if (value === undefined || !Number.isFinite(value))
    return `not measured (goal <= ${goal.max} ${goal.unit})`;
  const mark = value <= goal.max ? 'within goal' : value <= goal.alarm ? 'OVER GOAL' : 'ALARM';
  return `${value} ${goal.unit}  (goal <= ${goal.max}, alarm > ${goal.alarm} ${goal.unit}: ${mark})`;
}

/** A key past its alarm. */
export interface BenchAlarm {
  key: string;
  value: number;
  goal: BenchGoal;
}

/** Every measured key past its alarm (a key not measured in this run is no alarm: BENCH_ONLY picks files). */
export function alarms(measured: Record<string, number>, goals = BENCH_GOALS): BenchAlarm[] {
  const out: BenchAlarm[] = [];
  for (const [key, goal] of Object.entries(goals)) {
    const value = measured[key];
    if (value !== undefined && Number.isFinite(value) && value > goal.alarm) out.push({ key, value, goal });
  }
  return out;
}
