/**
 * Parsing a 1,000-task v2 list answer with the shared response schema (`envelope(z.array(Task))`), as every
 * list call of the client does; and, for context, JSON.parse plus the schema from the raw text.
 *
 * Run: node shared/bench/schema-parse.bench.ts
 */
import { z } from 'zod';
import { report, timeRuns } from '../../scripts/bench-kit.ts';
import { envelope, SHADES, Task } from '../src/schemas/index.ts';

const TASK_COUNT = 1_000;
const ITERATIONS = 300;
const BUDGET_MS = 5;

/** Tasks as a sales board answers them: custom fields, deal, assignee, first thread, some nulls. */
function realisticTask(index: number): Record<string, unknown> {
  const isSale = index % 3 === 0;
  const day = String((index % 28) + 1).padStart(2, '0');
  return {
    id: `tsk_${index.toString(36).padStart(8, '0')}`,
    content_type: isSale ? 'sale' : 'task',
    title: `Follow up with customer #${index} about the renewal quote`,
    notes:
      index % 4 === 0 ? null : `Called on the 3rd; they asked for a revised quote with ${index % 10} seats.`,
    board_id: 'brd_pipeline',
    board_name: 'Sales pipeline',
    list_id: `lst_stage_${index % 5}`,
    list_name: ['Leads', 'Qualified', 'Proposal', 'Negotiation', 'Won'][index % 5],
    completed: index % 7 === 0,
    shade: SHADES[index % SHADES.length],
    custom_fields: [
      { field_id: 'cf_priority', value: [`opt_${index % 3}`] },
      { field_id: 'cf_status', value: ['opt_waiting'] },
      { field_id: 'cf_seats', value: index % 50 },
      { field_id: 'cf_notes', value: 'Prefers email over calls' },
    ],
    due_at: index % 2 === 0 ? `2026-03-${day}T17:00:00Z` : null,
    created_at: `2026-01-${day}T09:30:00.000Z`,
    thread_ids:
      index % 2 === 0
        ? ['18c2f0a1b2c3d4e5', `18c2f0a1b2c3${(index % 4096).toString(16).padStart(4, '0')}`]
        : [],
    contact_id: isSale ? `con_${index}` : null,
    deal: isSale
      ? { value: 1200 + index, source: 'web', close_date: `2026-04-${day}T00:00:00Z`, loss_reason: null }
      : null,
    assignee: index % 5 === 0 ? null : { name: 'Ada Lovelace', email: 'ada@example.com' },
    first_thread:
      index % 2 === 0
        ? { title: `Re: Quote #${index}`, received_at: `2026-01-${day}T08:12:44Z`, from: 'bob@stone.test' }
        : null,
  };
}

const answer = {
  data: Array.from({ length: TASK_COUNT }, (_, index) => realisticTask(index)),
  meta: { request_id: 'req_bench', pagination: { next_cursor: 'cur_2', has_more: true, limit: 1000 } },
};
const text = JSON.stringify(answer);
const TaskListEnvelope = envelope(z.array(Task));

// A schema that rejects the fixture would make the timing meaningless.
TaskListEnvelope.parse(answer);

const schemaOnly = await timeRuns(() => TaskListEnvelope.parse(answer), { iterations: ITERATIONS });
const jsonOnly = await timeRuns(() => JSON.parse(text), { iterations: ITERATIONS });
const jsonAndSchema = await timeRuns(() => TaskListEnvelope.parse(JSON.parse(text)), {
  iterations: ITERATIONS,
});

report({
  name: 'parse 1,000-task list with envelope(z.array(Task)) (median)',
  value: schemaOnly.median,
  unit: 'ms',
  budget: { limit: BUDGET_MS, better: 'lower' },
  context: { p95: schemaOnly.p95, 'answer KiB': text.length / 1024 },
});
report({
  name: 'JSON.parse + schema of the same answer (median)',
  value: jsonAndSchema.median,
  unit: 'ms',
  context: { 'JSON.parse alone': jsonOnly.median, p95: jsonAndSchema.p95 },
});
