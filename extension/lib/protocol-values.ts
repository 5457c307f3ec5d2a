/**
 * The plain values of the message protocol (lib/protocol.ts), in a module without zod: the panel's task form
 * needs them and loads no validation, so the frame's first load stays small.
 */
import type { Task } from '@threadwork/shared/schemas';
import type { LinkedTaskView } from './protocol.ts';

/** The team picker's entry for the user's personal boards, which belong to no team. */
export const PERSONAL = 'personal';

/** How many of a thread's tasks the panel reads the state of (the newest): a panel's worth. */
export const LINKED_STATES = 10;

/** The code of a failure after the task was made (setting its fields or assigning it failed). */
export const TASK_CREATED = 'task_created';

/** A task as the panel lists it among the thread's tasks, with its state. */
export function linkedTaskView(task: Task): LinkedTaskView {
  const { id, title, completed, board_name, list_name } = task;
  return { id, title, completed, board_name, list_name };
}
