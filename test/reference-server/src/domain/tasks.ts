// The tasks area, one idea per file: tasks/commands.ts (every change), tasks/queries.ts (reading one
// task, listing a list or a board), tasks/view.ts (access to one task, rows → Task / v1 Item) and
// tasks/record.ts (their events).
export {
  archiveTask,
  assignTask,
  completeTask,
  createTask,
  deleteTask,
  linkThread,
  moveTask,
  type NewTask,
  reorderTask,
  type TaskMove,
  type TaskPatch,
  type TaskReorder,
  type ThreadLink,
  unassignTask,
  uncompleteTask,
  updateTask,
} from './tasks/commands.ts';
export { getTask, listAllTasks, listTasks, type TaskFilter } from './tasks/queries.ts';
// For a domain change that rewrote task values itself (a custom field's options, the AI's fields).
export { recordFieldValueChanges } from './tasks/record.ts';
export { toTask, toV1Item } from './tasks/view.ts';
