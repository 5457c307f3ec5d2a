import { taskEventTrigger } from './task-events.ts';

/** v2 event `task.updated`: a task's colour or custom-field values changed. */
export default taskEventTrigger({
  key: 'task_updated',
  event: 'task.updated',
  label: 'Task Updated',
  description: "Triggers when a task's color or custom field values change on a board.",
});
