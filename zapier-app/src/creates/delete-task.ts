import { defineAction } from './define.ts';
import { taskFields } from './fields.ts';
import { deletedTask } from './resources.ts';

export default defineAction({
  key: 'delete_task',
  noun: 'Task',
  label: 'Delete Task',
  description: 'Deletes a task for good (archive it instead to keep it readable).',
  inputFields: taskFields(),
  resource: deletedTask,
  perform: async ({ input, v2, idempotencyKey }) => {
    const deleted = await v2().tasks.delete(input.required('task_id'), { idempotencyKey: idempotencyKey() });
    return { id: deleted.id, deleted: true as const };
  },
});
