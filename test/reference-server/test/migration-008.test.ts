// Migration 008: a task's events are read through an index on (task_id, seq), not by scanning every
// event. Runs on SQLite and, in the PostgreSQL project, on PostgreSQL.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { onPostgres, openTestDatabase } from './helpers/database.ts';

it('indexes events by task, in order, so the task page reads only its task’s events', async () => {
  const handle = await openTestDatabase();
  try {
    if (onPostgres) {
      // The planner scans a small table whatever its indexes: check the index is there, as it is made.
      const { rows } = await sql<{ indexdef: string }>`
        select indexdef from pg_indexes where tablename = 'events' and indexname = 'events_task'
      `.execute(handle.db);
      expect(rows.map((row) => row.indexdef)).toEqual([expect.stringMatching(/\(task_id, seq\)$/)]);
    } else {
      const { rows } = await sql<{ detail: string }>`
        explain query plan select id from events where task_id = ${'tsk_x'} order by seq
      `.execute(handle.db);
      const plan = rows.map((row) => row.detail).join('\n');
      expect(plan).toContain('USING INDEX events_task');
      expect(plan).not.toContain('USE TEMP B-TREE');
    }
  } finally {
    await handle.close();
  }
});
