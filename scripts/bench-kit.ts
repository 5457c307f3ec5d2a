/**
 * The small kit every benchmark uses: time a function, summarise samples, and print one result line per
 * figure with its budget. Benchmarks report; they never fail the build (budgets are tracked, not asserted).
 */

export interface Summary {
  samples: number;
  median: number;
  p95: number;
  p99: number;
  mean: number;
}

export function summarise(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { samples: sorted.length, median: at(0.5), p95: at(0.95), p99: at(0.99), mean };
}

/** Runs `fn` `warmup` times unmeasured, then `iterations` times; returns per-run milliseconds. */
export async function timeRuns(
  fn: () => unknown | Promise<unknown>,
  { iterations, warmup = Math.ceil(iterations / 5) }: { iterations: number; warmup?: number },
): Promise<Summary> {
  for (let i = 0; i < warmup; i++) await fn();
  const runs: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    runs.push(performance.now() - start);
  }
  return summarise(runs);
}

export interface BudgetLine {
  /** What was measured, e.g. "parse 1,000-task list (median)". */
  name: string;
  value: number;
  unit: string;
  /** The budget, and whether higher or lower is better. */
  budget?: { limit: number; better: 'lower' | 'higher' };
  /** Extra figures measured in the same run (baselines, peers), shown beside the value. */
  context?: Record<string, number | string>;
}

const results: BudgetLine[] = [];

export function report(line: BudgetLine): void {
  results.push(line);
  const verdict = line.budget
    ? (line.budget.better === 'lower' ? line.value <= line.budget.limit : line.value >= line.budget.limit)
      ? `within budget (${line.budget.better === 'lower' ? '≤' : '≥'} ${line.budget.limit} ${line.unit})`
      : `OVER BUDGET (${line.budget.better === 'lower' ? '≤' : '≥'} ${line.budget.limit} ${line.unit})`
    : '';
  const context = line.context
    ? ` [${Object.entries(line.context)
        .map(([key, value]) => `${key}: ${typeof value === 'number' ? round(value) : value}`)
        .join(', ')}]`
    : '';
  console.log(`${line.name}: ${round(line.value)} ${line.unit} ${verdict}${context}`);
}

export function round(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 1000) / 1000;
}

/** Results gathered so far (the bench runner writes them to a JSON file). */
export function reportedResults(): readonly BudgetLine[] {
  return results;
}
