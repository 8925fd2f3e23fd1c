/** A bench key's goal: the measured value must be at most `max` (every goal so far is a ceiling). */
export interface BenchGoal {
  max: number;
  unit: string;
}

/** The goals of every bench key (README, Benchmark), from the foundation issue and issue 11. */
export const BENCH_GOALS: Record<string, BenchGoal> = {
  host_over_raw_p50: { max: 1.25, unit: 'x' },
  bridge_minus_raw_p50_ms: { max: 1, unit: 'ms' },
  concurrent_1000_over_raw: { max: 1.5, unit: 'x' },
  startup_20_over_raw: { max: 1.15, unit: 'x' },
  cli_exit_after_output_ms: { max: 250, unit: 'ms' },
  tools_2000_convert_ms: { max: 20, unit: 'ms' },
  rss_growth_10k_pct: { max: 10, unit: '%' },
  ui_filter_2000_ms: { max: 50, unit: 'ms' },
  thread_1000_open_ms: { max: 300, unit: 'ms' },
  renderer_first_js_kb: { max: 250, unit: 'KB' },
};

/** One line saying how a measured value stands against its goal. */
export function verdict(value: number | undefined, goal: BenchGoal): string {
  if (value === undefined || !Number.isFinite(value))
    return `not measured (goal <= ${goal.max} ${goal.unit})`;
  const mark = value <= goal.max ? 'within goal' : 'OVER GOAL';
  return `${value} ${goal.unit}  (goal <= ${goal.max} ${goal.unit}: ${mark})`;
}
