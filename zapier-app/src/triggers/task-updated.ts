import { taskEventTrigger } from './task-events.ts';

/**
 * v2 event `task.updated`: a task's colour or custom-field values changed, a thread was linked to it, or its
 * assignee was removed; the output says which (Changed Fields, the Previous values).
 */
export default taskEventTrigger({
  key: 'task_updated',
  event: 'task.updated',
  label: 'Task Updated',
  description:
    'Triggers when a task on a board changes (its color, custom field values or linked threads, or its assignee is removed), with what changed and the values before.',
});
