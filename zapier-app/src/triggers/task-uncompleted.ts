import { taskEventTrigger } from './task-events.ts';

/** v2 event `task.uncompleted`: a completed task was marked incomplete again. */
export default taskEventTrigger({
  key: 'task_uncompleted',
  event: 'task.uncompleted',
  label: 'Task Marked Incomplete',
  description: 'Triggers when a completed task on a board is marked incomplete again.',
  sampleFilter: (task) => !task.completed,
});
