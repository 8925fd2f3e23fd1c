/** A bench key's goal: the measured value must be at most `max`, or at least `min` (recall). */
export interface BenchGoal {
  max?: number;
  min?: number;
  unit: string;
}

/** The goals of every bench key (docs/benchmarks.md), from the foundation issue and issue 11. */
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
  toolsearch_gold_recall_at_32: { min: 0.8, unit: '' },
  toolsearch_task_recall_at_32: { min: 0.6, unit: '' },
  toolsearch_tokens_p50: { max: 8000, unit: 'tokens' },
  toolsearch_over_cap: { max: 0, unit: 'requests' },
  toolsearch_rank_ms_p95: { max: 5, unit: 'ms' },
  toolsearch_index_ms: { max: 500, unit: 'ms' },
  toolsearch_rank_cpu_ms_p95: { max: 5, unit: 'ms' },
  toolsearch_index_cpu_ms: { max: 500, unit: 'ms' },
};

/** One line saying how a measured value stands against its goal. */
export function verdict(value: number | undefined, goal: BenchGoal): string {
  const bound = goal.min !== undefined ? `>= ${goal.min}` : `<= ${goal.max}`;
  if (value === undefined || !Number.isFinite(value)) return `not measured (goal ${bound} ${goal.unit})`;
  const met = (goal.max === undefined || value <= goal.max) && (goal.min === undefined || value >= goal.min);
  const mark = met ? 'within goal' : goal.min !== undefined ? 'UNDER GOAL' : 'OVER GOAL';
  return `${value} ${goal.unit}  (goal ${bound} ${goal.unit}: ${mark})`;
}
