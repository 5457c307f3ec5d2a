import { defineAction } from './define.ts';
import { taskFields } from './fields.ts';
import { task } from './resources.ts';

export default defineAction({
  key: 'complete_task',
  noun: 'Task',
  label: 'Mark Task Complete',
  description: 'Updates a task to completed.',
  inputFields: taskFields(),
  resource: task,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().tasks.complete(input.required('task_id'), { idempotencyKey: idempotencyKey() }),
});
