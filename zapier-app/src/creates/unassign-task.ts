import { assigneeEmail } from './assign-task.ts';
import { defineAction } from './define.ts';
import { memberField, taskFields } from './fields.ts';
import { unassignment } from './resources.ts';

// v1 items/unassignTask needs the current assignee's email: with the task alone, the app reads the task
// (v2) first to learn it. An unassigned task is left as it is (`unassigned_email` null).
export default defineAction({
  key: 'unassign_task',
  noun: 'Task',
  label: 'Unassign Task',
  description: 'Updates a task so that nobody is assigned to it.',
  inputFields: [
    ...taskFields(),
    memberField({
      label: 'Current Assignee',
      required: false,
      helpText:
        'Leave empty and the app finds who is assigned; pick or map a member (e.g. `bob@example.com`) to unassign only that member.',
    }),
  ],
  resource: unassignment,
  perform: async (context) => {
    const { input, v1, v2, idempotencyKey } = context;
    const id = input.required('task_id');
    const given = input.text('assignee_email');
    const email =
      given === undefined
        ? ((await v2().tasks.get(id)).assignee?.email ?? undefined)
        : await assigneeEmail(context, 'assignee_email', given);
    if (email === undefined) return { id, assignee_email: null, unassigned_email: null };
    await v1().unassignTask(id, email, { idempotencyKey: idempotencyKey() });
    return { id, assignee_email: null, unassigned_email: email };
  },
});
