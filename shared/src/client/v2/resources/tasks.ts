import type { z } from 'zod';
import { Deleted, envelope } from '../../../schemas/common.ts';
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
} from '../../../schemas/v2/tasks.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const TaskEnvelope = envelope(Task);
const TaskListEnvelope = envelope(Task.array());
const ReorderResultEnvelope = envelope(ReorderResult);
const LinkThreadResultEnvelope = envelope(LinkThreadResult);
const DeletedEnvelope = envelope(Deleted);

function taskPath(id: string, action = ''): string {
  return `/tasks/${pathId(id, 'task id')}${action}`;
}

export class TasksResource extends Resource {
  /** GET /tasks: one of list_id or board_id; completed tasks too unless `completed: false`. */
  list(query: ListParams<ListTasksQuery>, options?: RequestOptions): PagePromise<Task> {
    return this.transport.list(
      () => ({ path: '/tasks', query: parseQuery(ListTasksQuery, query) }),
      TaskListEnvelope,
      options,
    );
  }

  async get(id: string, options?: RequestOptions): Promise<Task> {
    return this.transport.request('GET', taskPath(id), TaskEnvelope, undefined, options);
  }

  /** POST /tasks: a plain task (title), or one built from a mailbox thread (thread_id). */
  async create(body: z.input<typeof CreateTaskRequest>, options?: RequestOptions): Promise<Task> {
    return this.transport.request(
      'POST',
      '/tasks',
      TaskEnvelope,
      parseRequest(CreateTaskRequest, body),
      options,
    );
  }

  /** PATCH /tasks/{id}: shade and/or custom field values; answers the full updated task. */
  async update(id: string, body: z.input<typeof UpdateTaskRequest>, options?: RequestOptions): Promise<Task> {
    const payload = parseRequest(UpdateTaskRequest, body);
    return this.transport.request('PATCH', taskPath(id), TaskEnvelope, payload, options);
  }

  async complete(id: string, options?: RequestOptions): Promise<Task> {
    return this.transport.request('POST', taskPath(id, '/complete'), TaskEnvelope, undefined, options);
  }

  /** POST /tasks/{id}/move: to another list (top by default); a move to the current list changes nothing. */
  async move(id: string, body: z.input<typeof MoveTaskRequest>, options?: RequestOptions): Promise<Task> {
    const payload = parseRequest(MoveTaskRequest, body);
    return this.transport.request('POST', taskPath(id, '/move'), TaskEnvelope, payload, options);
  }

  /** POST /tasks/{id}/reorder: check `persisted` in the answer; false means re-read and retry. */
  async reorder(
    id: string,
    body: z.input<typeof ReorderTaskRequest>,
    options?: RequestOptions,
  ): Promise<ReorderResult> {
    const payload = parseRequest(ReorderTaskRequest, body);
    return this.transport.request('POST', taskPath(id, '/reorder'), ReorderResultEnvelope, payload, options);
  }

  /** POST /tasks/{id}/threads: links a mailbox thread; answers every thread id of the task. */
  async linkThread(
    id: string,
    body: z.input<typeof LinkThreadRequest>,
    options?: RequestOptions,
  ): Promise<LinkThreadResult> {
    const payload = parseRequest(LinkThreadRequest, body);
    return this.transport.request(
      'POST',
      taskPath(id, '/threads'),
      LinkThreadResultEnvelope,
      payload,
      options,
    );
  }

  /** POST /tasks/{id}/archive: the task leaves its list's listing. */
  async archive(id: string, options?: RequestOptions): Promise<Task> {
    return this.transport.request('POST', taskPath(id, '/archive'), TaskEnvelope, undefined, options);
  }

  async delete(id: string, options?: RequestOptions): Promise<Deleted> {
    return this.transport.request('DELETE', taskPath(id), DeletedEnvelope, undefined, options);
  }
}
