import { defineAction } from './define.ts';
import { taskFields } from './fields.ts';
import { completionChange } from './resources.ts';

// v2 has no "uncomplete": this is the v1 items/markIncomplete action (a v1 item id is the v2 task id).
export default defineAction({
  key: 'mark_task_incomplete',
  noun: 'Task',
  label: 'Mark Task Incomplete',
  description: 'Updates a completed task back to not completed.',
  inputFields: taskFields(),
  resource: completionChange,
  perform: async ({ input, v1, idempotencyKey }) => {
    const id = input.required('task_id');
    await v1().markIncomplete(id, { idempotencyKey: idempotencyKey() });
    return { id, completed: false };
  },
});
