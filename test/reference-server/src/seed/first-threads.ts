import type { Executor } from '../db/executor.ts';
import { taskFields } from '../db/task-fields.ts';
import { compareMessages } from '../domain/mailbox/threads.ts';
import { firstThreadOf } from '../domain/tasks/view.ts';

/**
 * A seed links tasks to threads by id only: give each such task the `first_thread` snapshot of its
 * first linked thread, read from whichever seeded mailbox holds it. Run once, when a seed is loaded.
 */
export async function snapshotFirstThreads(tx: Executor): Promise<void> {
  const rows = await tx
    .selectFrom('task_threads')
    .innerJoin('tasks', 'tasks.id', 'task_threads.task_id')
    .innerJoin('messages', 'messages.thread_id', 'task_threads.thread_id')
    .select([
      'task_threads.task_id',
      'task_threads.position as link_position',
      'messages.mailbox_id',
      'messages.thread_id',
      'messages.id',
      'messages.subject',
      'messages.from_email',
      'messages.from_name',
      'messages.date',
    ])
    .where('tasks.first_thread_title', 'is', null)
    .where('tasks.first_thread_from', 'is', null)
    .execute();
  type Row = (typeof rows)[number];
  // Per task: the messages of its first linked thread, in the first mailbox that holds it.
  const firstOf = new Map<string, Row[]>();
  for (const row of rows) {
    const chosen = firstOf.get(row.task_id);
    const head = chosen?.[0];
    const better =
      !head ||
      Number(row.link_position) < Number(head.link_position) ||
      (row.thread_id === head.thread_id && row.mailbox_id < head.mailbox_id);
    if (better) firstOf.set(row.task_id, [row]);
    else if (row.thread_id === head.thread_id && row.mailbox_id === head.mailbox_id) chosen!.push(row);
  }
  for (const [taskId, messages] of firstOf) {
    messages.sort(compareMessages);
    const snapshot = firstThreadOf({
      subject: messages[0]?.subject ?? null,
      messages: messages.map((message) => ({
        id: message.id,
        from: { email: message.from_email, name: message.from_name },
        date: message.date,
      })),
    });
    await tx
      .updateTable('tasks')
      .set(taskFields.changedColumnsOf({ first_thread: snapshot }))
      .where('id', '=', taskId)
      .execute();
  }
}
