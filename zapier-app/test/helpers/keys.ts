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

/** The action keys, letter for letter and in the app's order. */
export const CREATE_KEYS = [
  'create_task',
  'create_task_from_thread',
  'complete_task',
  'mark_task_incomplete',
  'assign_task',
  'unassign_task',
  'move_task',
  'reorder_task',
  'set_task_color',
  'set_custom_fields',
  'link_thread',
  'archive_task',
  'delete_task',
  'create_board',
  'create_list',
  'create_contact',
  'update_contact',
  'create_company',
  'update_company',
  'create_draft',
  'reply_to_thread',
  'send_email',
  'change_labels',
  'set_read_state',
  'snooze_thread',
  'analyze_thread',
];
/** The search keys, letter for letter and in the app's order. */
export const SEARCH_KEYS = [
  'find_task',
  'find_thread',
  'find_contact',
  'find_company',
  'find_member',
  'find_task_by_id',
];
