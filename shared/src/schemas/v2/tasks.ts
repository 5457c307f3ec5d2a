import { z } from 'zod';
import {
  DateTime,
  HexId,
  NotesString,
  openEnum,
  PaginationQuery,
  QueryBoolean,
  TitleString,
} from '../common.ts';
import { SHADES } from '../values.ts';
import { CustomFieldValue, CustomFieldValueInput } from './custom-fields.ts';

export { SHADES };
export const Shade = z.enum(SHADES);
export type Shade = z.infer<typeof Shade>;

export const CONTENT_TYPES = ['task', 'sale'] as const;
export const ContentType = z.enum(CONTENT_TYPES);

export const Deal = z.looseObject({
  value: z.number().nullable(),
  source: z.string().nullable(),
  close_date: DateTime.nullable(),
  loss_reason: z.string().nullable(),
});
export type Deal = z.infer<typeof Deal>;

export const Assignee = z.looseObject({
  name: z.string().nullable(),
  email: z.string().nullable(),
});

export const FirstThread = z.looseObject({
  title: z.string().nullable(),
  received_at: DateTime.nullable(),
  from: z.string().nullable(),
});

export const Task = z.looseObject({
  id: z.string(),
  content_type: openEnum(CONTENT_TYPES),
  title: z.string(),
  notes: z.string().nullable(),
  board_id: z.string().nullable(),
  board_name: z.string().nullable(),
  list_id: z.string().nullable(),
  list_name: z.string().nullable(),
  completed: z.boolean(),
  shade: openEnum(SHADES),
  custom_fields: z.array(CustomFieldValue),
  due_at: DateTime.nullable(),
  created_at: DateTime.nullable(),
  thread_ids: z.array(z.string()),
  contact_id: z.string().nullable(),
  deal: Deal.nullable(),
  assignee: Assignee.nullable(),
  first_thread: FirstThread.nullable(),
});
export type Task = z.infer<typeof Task>;

/** Where a task lands in its list: `top` is the default; `after_task_id` wins over `position`. */
export const POSITIONS = ['top', 'bottom'] as const;
export const Position = z.enum(POSITIONS);
export type Position = z.infer<typeof Position>;

export const CreateTaskRequest = z
  .strictObject({
    list_id: z.string().min(1),
    title: TitleString.optional(),
    notes: NotesString.optional(),
    due_at: DateTime.optional(),
    thread_id: HexId.optional(),
    archive: z.boolean().optional(),
    position: Position.optional(),
    after_task_id: z.string().min(1).optional(),
  })
  .superRefine((task, ctx) => {
    if (task.thread_id === undefined && task.title === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['title'],
        message: 'title is required unless thread_id is sent',
      });
    }
    if (task.archive !== undefined && task.thread_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['archive'], message: 'archive is only valid with thread_id' });
    }
  });
export type CreateTaskRequest = z.infer<typeof CreateTaskRequest>;

export const UpdateTaskRequest = z
  .strictObject({
    shade: Shade.optional(),
    custom_fields: z.array(CustomFieldValueInput).optional(),
  })
  .refine((patch) => patch.shade !== undefined || patch.custom_fields !== undefined, {
    message: 'send at least one of shade, custom_fields',
  });
export type UpdateTaskRequest = z.infer<typeof UpdateTaskRequest>;

export const MoveTaskRequest = z.strictObject({
  list_id: z.string().min(1),
  position: Position.optional(),
  after_task_id: z.string().min(1).optional(),
});
export type MoveTaskRequest = z.infer<typeof MoveTaskRequest>;

export const ReorderTaskRequest = z
  .strictObject({
    after_task_id: z.string().min(1).optional(),
    position: Position.optional(),
  })
  .refine((reorder) => reorder.after_task_id !== undefined || reorder.position !== undefined, {
    message: 'send after_task_id or position',
  });
export type ReorderTaskRequest = z.infer<typeof ReorderTaskRequest>;

export const ReorderResult = z.looseObject({
  id: z.string(),
  /** Where the task actually landed; null = top. */
  after_task_id: z.string().nullable(),
  position_index: z.number().int(),
  /**
   * True whenever the task stands where it was asked to go afterwards, also when it already stood there
   * (a no-op). False means it does not: re-read and retry.
   */
  persisted: z.boolean(),
});
export type ReorderResult = z.infer<typeof ReorderResult>;

export const LinkThreadRequest = z.strictObject({
  thread_id: HexId,
  archive: z.boolean().optional(),
});
export type LinkThreadRequest = z.infer<typeof LinkThreadRequest>;

export const LinkThreadResult = z.looseObject({ id: z.string(), thread_ids: z.array(z.string()) });
export type LinkThreadResult = z.infer<typeof LinkThreadResult>;

/** GET /tasks: one of list_id or board_id; completed tasks are listed unless completed=false. */
export const ListTasksQuery = PaginationQuery.extend({
  list_id: z.string().min(1).optional(),
  board_id: z.string().min(1).optional(),
  completed: QueryBoolean.optional(),
}).refine((query) => (query.list_id === undefined) !== (query.board_id === undefined), {
  message: 'send exactly one of list_id or board_id',
});
export type ListTasksQuery = z.infer<typeof ListTasksQuery>;
