import { defineAction } from './define.ts';
import { taskFields } from './fields.ts';
import { task } from './resources.ts';

export default defineAction({
  key: 'archive_task',
  noun: 'Task',
  label: 'Archive Task',
  description: "Updates a task to archived: it leaves its list's listing and stays readable by its ID.",
  inputFields: taskFields(),
  resource: task,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().tasks.archive(input.required('task_id'), { idempotencyKey: idempotencyKey() }),
});
