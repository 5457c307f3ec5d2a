import { samplePrevious } from './task-changes.ts';
import { taskEventTrigger } from './task-events.ts';

/**
 * v2 event `task.updated`: a task's colour or custom-field values changed, a thread was linked to it, or its
 * assignee was removed; the output says which (Changed Fields, the Previous values).
 */
export default taskEventTrigger({
  key: 'task_updated',
  event: 'task.updated',
  label: 'Task Updated',
  // A sample shows the change that gave a task its colour and custom-field values: a task with neither has none.
  sampleFilter: (task) => samplePrevious(task) !== undefined,
  description:
    'Triggers when a task on a board changes: its color, custom field values or linked threads, or its assignee is removed. Changed Fields names what changed (Color, or a custom field by its name) for a Filter step, and the Previous fields hold the values before.',
});
