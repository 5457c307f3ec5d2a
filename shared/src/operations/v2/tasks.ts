// Tasks: the work items on a board's lists.
import { Deleted } from '../../schemas/common.ts';
import {
  CreateTaskRequest,
  LinkThreadRequest,
  LinkThreadResult,
  ListTasksQuery,
  MoveTaskRequest,
  ReorderResult,
  ReorderTaskRequest,
  Task,
  UpdateTaskRequest,
} from '../../schemas/v2/tasks.ts';
import { ID, MAILBOX, operation, TASK_DATA } from '../operation.ts';

export const tasks = {
  list: operation({
    method: 'GET',
    path: '/v2/tasks',
    operationId: 'listTasks',
    tag: 'Tasks',
    summary: 'List the tasks of a list or a board',
    description:
      'Exactly one of `list_id` or `board_id`. Tasks come in list order (top first; a board lists list by ' +
      'list). Completed tasks are listed too unless `completed=false`; archived and deleted tasks are not.',
    scopes: ['tasks.read'],
    query: ListTasksQuery,
    page: Task,
    gated: true,
  }),
  create: operation({
    method: 'POST',
    path: '/v2/tasks',
    operationId: 'createTask',
    tag: 'Tasks',
    summary: 'Create a task, plain or from a mailbox thread',
    description:
      'With `thread_id` the task is built from the thread (title defaults to its subject, cut to 1,024 ' +
      'characters), the thread is linked, and `archive: true` takes it out of the Inbox. Placement: ' +
      '`after_task_id` wins over `position`; the default is the top of the list. ' +
      TASK_DATA,
    scopes: ['tasks.write'],
    scopesWhenSent: [{ in: 'body', field: 'thread_id', scope: 'email.metadata.read' }],
    body: CreateTaskRequest,
    data: Task,
    gated: true,
    errors: MAILBOX,
  }),
  get: operation({
    method: 'GET',
    path: '/v2/tasks/{id}',
    operationId: 'getTask',
    tag: 'Tasks',
    summary: 'Get a task',
    description: 'An archived task can still be read here; a deleted one is a 404.',
    scopes: ['tasks.read'],
    pathParams: ID.task,
    data: Task,
    gated: true,
  }),
  update: operation({
    method: 'PATCH',
    path: '/v2/tasks/{id}',
    operationId: 'updateTask',
    tag: 'Tasks',
    summary: 'Set a task’s shade or custom-field values',
    description:
      'Only the custom fields named change; a value of `[]` or null clears that one field. Setting an ' +
      'AI-managed field is a 400. ' +
      TASK_DATA,
    scopes: ['tasks.write'],
    scopesWhenSent: [{ in: 'body', field: 'custom_fields', scope: 'customfields.write' }],
    pathParams: ID.task,
    body: UpdateTaskRequest,
    data: Task,
    gated: true,
  }),
  delete: operation({
    method: 'DELETE',
    path: '/v2/tasks/{id}',
    operationId: 'deleteTask',
    tag: 'Tasks',
    summary: 'Delete a task',
    description: 'The task is gone: later reads are 404. Fires task.deleted (with the task as it was).',
    scopes: ['tasks.write'],
    pathParams: ID.task,
    data: Deleted,
    gated: true,
  }),
  complete: operation({
    method: 'POST',
    path: '/v2/tasks/{id}/complete',
    operationId: 'completeTask',
    tag: 'Tasks',
    summary: 'Mark a task complete',
    description: `Completing a completed task changes nothing. ${TASK_DATA}`,
    scopes: ['tasks.write'],
    pathParams: ID.task,
    data: Task,
    gated: true,
  }),
  move: operation({
    method: 'POST',
    path: '/v2/tasks/{id}/move',
    operationId: 'moveTask',
    tag: 'Tasks',
    summary: 'Move a task to another list',
    description:
      'A move to the list the task is already on is a no-op. Placement as on create (default top). The ' +
      `destination must be a list the caller may see (404 otherwise). ${TASK_DATA}`,
    scopes: ['tasks.write'],
    pathParams: ID.task,
    body: MoveTaskRequest,
    data: Task,
    gated: true,
  }),
  reorder: operation({
    method: 'POST',
    path: '/v2/tasks/{id}/reorder',
    operationId: 'reorderTask',
    tag: 'Tasks',
    summary: 'Move a task within its list',
    description:
      'The anchor `after_task_id` wins over `position`. The answer reports where the task actually landed. ' +
      '`persisted` is true whenever the task stands where it was asked to go afterwards, including when it ' +
      'already stood there (nothing is written then); false would mean it does not, so re-read and retry.',
    scopes: ['tasks.write'],
    pathParams: ID.task,
    body: ReorderTaskRequest,
    data: ReorderResult,
    gated: true,
  }),
  linkThread: operation({
    method: 'POST',
    path: '/v2/tasks/{id}/threads',
    operationId: 'linkThread',
    tag: 'Tasks',
    summary: 'Link a mailbox thread to a task',
    description: 'Linking a thread already on the task is a no-op. The answer lists every linked thread id.',
    scopes: ['tasks.write', 'email.metadata.read'],
    pathParams: ID.task,
    body: LinkThreadRequest,
    data: LinkThreadResult,
    gated: true,
    errors: MAILBOX,
  }),
  archive: operation({
    method: 'POST',
    path: '/v2/tasks/{id}/archive',
    operationId: 'archiveTask',
    tag: 'Tasks',
    summary: 'Archive a task',
    description: `An archived task leaves its list's listing but can still be read by id. ${TASK_DATA}`,
    scopes: ['tasks.write'],
    pathParams: ID.task,
    data: Task,
    gated: true,
  }),
};
