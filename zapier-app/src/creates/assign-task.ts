import { memberEmail } from '../lib/board-members.ts';
import { type ActionContext, defineAction } from './define.ts';
import { invalid, memberField, taskFields } from './fields.ts';
import { assignmentChange } from './resources.ts';

/**
 * The email of the member the input names (an email, a user ID or an exact name): the board is the chosen
 * one, or the task's (one read of the task) when the input is no email.
 */
export function assigneeEmail({ input, v2 }: ActionContext, key: string, wanted: string): Promise<string> {
  const boardId = async () =>
    input.text('board_id') ?? (await v2().tasks.get(input.required('task_id'))).board_id ?? '';
  return memberEmail(v2(), boardId, wanted, (message) => invalid(key, message));
}

// v2 has no assignment endpoint: this is the v1 items/assignTask action.
export default defineAction({
  key: 'assign_task',
  noun: 'Task',
  label: 'Assign Task',
  description: "Updates a task's assignee to a member of its board.",
  inputFields: [...taskFields(), memberField()],
  resource: assignmentChange,
  perform: async (context) => {
    const { input, v1, idempotencyKey } = context;
    const id = input.required('task_id');
    const email = await assigneeEmail(context, 'assignee_email', input.required('assignee_email'));
    await v1().assignTask(id, email, { idempotencyKey: idempotencyKey() });
    return { id, assignee_email: email };
  },
});
