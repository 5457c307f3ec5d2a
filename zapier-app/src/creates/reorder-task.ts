import { ThreadworkError } from '@threadwork/shared/light';
import { defineAction } from './define.ts';
import { defined, placement, placementFields, taskFields } from './fields.ts';
import { reorderResult } from './resources.ts';

export default defineAction({
  key: 'reorder_task',
  noun: 'Task',
  label: 'Reorder Task',
  description: 'Updates the position of a task within its list (its priority).',
  inputFields: [...taskFields(), ...placementFields],
  resource: reorderResult,
  perform: async ({ input, v2, idempotencyKey }) => {
    const id = input.required('task_id');
    const body = defined({
      ...placement(input),
    });
    const first = await v2().tasks.reorder(id, body, { idempotencyKey: idempotencyKey() });
    if (first.persisted) return first;
    // `persisted: false`: a concurrent reorder won and nothing was written. A replay of the same key would
    // repeat that answer, so the one retry goes under its own key.
    const second = await v2().tasks.reorder(id, body, { idempotencyKey: idempotencyKey('retry') });
    if (second.persisted) return second;
    throw new ThreadworkError({
      message:
        'The list was being reordered by someone else at the same time, so the new position was not stored. Run the step again.',
      code: 'reorder_not_persisted',
    });
  },
});
