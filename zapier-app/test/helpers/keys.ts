/** The trigger keys, letter for letter and in the app's order: the contract the Zaps built on them rely on. */
export const TRIGGER_KEYS = [
  'new_task_in_list',
  'new_task_on_board',
  'task_completed',
  'task_archived',
  'task_deleted',
  'task_assigned',
  'task_moved_to_list',
  'new_thread_reply',
  'teams',
  'boards',
  'lists',
  'threads',
];
