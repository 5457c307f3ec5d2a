import { defineAction } from './define.ts';
import { memberField, taskFields } from './fields.ts';
import { assignmentChange } from './resources.ts';

// v2 has no assignment endpoint: this is the v1 items/assignTask action.
export default defineAction({
  key: 'assign_task',
  noun: 'Task',
  label: 'Assign Task',
  description: "Updates a task's assignee to a member of its board.",
  inputFields: [...taskFields(), memberField()],
  resource: assignmentChange,
  perform: async ({ input, v1, idempotencyKey }) => {
    const id = input.required('task_id');
    const email = input.required('assignee_email');
    await v1().assignTask(id, email, { idempotencyKey: idempotencyKey() });
    return { id, assignee_email: email };
  },
});
