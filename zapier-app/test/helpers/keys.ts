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
  'task_updated',
  'task_uncompleted',
  'teams',
  'boards',
  'lists',
  'threads',
  'tasks',
  'contacts',
  'companies',
  'members',
];

/** How many of them are instant (REST hooks and v2 webhooks); the rest are the hidden dropdowns. */
export const INSTANT_TRIGGER_COUNT = 10;
