// The mailbox API other domain areas call (creating a task from a thread, archiving it), without HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.ts';
import { ServiceError } from '../src/domain/errors.ts';
import {
  archiveThread,
  findThread,
  linkedTasksOf,
  requireConnectedMailbox,
  searchThreads,
} from '../src/domain/mailbox/index.ts';
import { loadSeed } from '../src/seed/load-seed.ts';
import { openTestDatabase } from './helpers/database.ts';
import { MAILBOX_NOW, mailboxSeed, THREADS } from './helpers/mailbox-fixtures.ts';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await openTestDatabase();
  await loadSeed(handle.db, mailboxSeed, MAILBOX_NOW);
});
afterEach(() => handle.close());

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

const inboxIds = async () =>
  (await searchThreads(handle.db, 'usr_ada', 'in:inbox', {}, MAILBOX_NOW)).items.map(
    (thread) => thread.thread_id,
  );

describe('requireConnectedMailbox', () => {
  it('returns a connected mailbox', async () => {
    expect(await requireConnectedMailbox(handle.db, 'usr_ada')).toMatchObject({
      user_id: 'usr_ada',
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      state: 'connected',
    });
  });

  it('throws 409 mailbox_reauth_required or mailbox_not_connected otherwise', async () => {
    expect(await codeOf(requireConnectedMailbox(handle.db, 'usr_bob'))).toBe('mailbox_reauth_required');
    expect(await codeOf(requireConnectedMailbox(handle.db, 'usr_dan'))).toBe('mailbox_not_connected');
  });
});

describe('findThread', () => {
  it('summarises a thread of the user’s mailbox, messages oldest first', async () => {
    expect(await findThread(handle.db, 'usr_ada', THREADS.roof)).toEqual({
      threadId: THREADS.roof,
      subject: 'Quote for the roof',
      messages: [
        { id: THREADS.roof, from: { email: 'bob@stone.test', name: 'Bob' }, date: '2026-01-05T09:00:00Z' },
        {
          id: '18c2f0a1b2c3d4f0',
          from: { email: 'ada@example.com', name: 'Ada Lovelace' },
          date: '2026-01-05T10:00:00Z',
        },
      ],
    });
  });

  it('answers null for a thread of another mailbox, an unknown thread and a user without a mailbox', async () => {
    expect(await findThread(handle.db, 'usr_ada', THREADS.carols)).toBeNull();
    expect(await findThread(handle.db, 'usr_ada', 'ffffffffffffffff')).toBeNull();
    expect(await findThread(handle.db, 'usr_dan', THREADS.roof)).toBeNull();
  });
});

describe('archiveThread', () => {
  it('removes INBOX from every message of the thread and keeps its other labels', async () => {
    expect(await inboxIds()).toContain(THREADS.roof);
    await archiveThread(handle.db, 'usr_ada', THREADS.roof);
    expect(await inboxIds()).not.toContain(THREADS.roof);
    const labels = await handle.db
      .selectFrom('message_labels')
      .select(['message_id', 'label_id'])
      .where('message_id', 'in', [THREADS.roof, '18c2f0a1b2c3d4f0'])
      .orderBy('message_id')
      .orderBy('label_id')
      .execute();
    expect(labels).toEqual([
      { message_id: THREADS.roof, label_id: 'Label_1' },
      { message_id: THREADS.roof, label_id: 'UNREAD' },
      { message_id: '18c2f0a1b2c3d4f0', label_id: 'SENT' },
    ]);
    // Archiving twice changes nothing.
    await archiveThread(handle.db, 'usr_ada', THREADS.roof);
    expect(await inboxIds()).not.toContain(THREADS.roof);
  });

  it('404s a thread the user’s mailbox does not have, and leaves the other mailbox alone', async () => {
    expect(await codeOf(archiveThread(handle.db, 'usr_ada', THREADS.carols))).toBe('not_found');
    const carols = await searchThreads(handle.db, 'usr_carol', 'in:inbox', {}, MAILBOX_NOW);
    expect(carols.items.map((thread) => thread.thread_id)).toEqual([THREADS.carols]);
  });

  it('409s while the mailbox is not usable', async () => {
    expect(await codeOf(archiveThread(handle.db, 'usr_bob', THREADS.roof))).toBe('mailbox_reauth_required');
  });
});

describe('linkedTasksOf', () => {
  it('lists only tasks on boards the user may use: own paid teams and personal boards', async () => {
    expect(await linkedTasksOf(handle.db, 'usr_ada', THREADS.roof)).toEqual([
      { id: 'tsk_roof', title: 'Send the roof quote' },
    ]);
    // Carol is in the Umbrella team, whose card links the same thread id.
    expect(await linkedTasksOf(handle.db, 'usr_carol', THREADS.roof)).toEqual([
      { id: 'tsk_secret_roof', title: 'Foreign card' },
    ]);
  });

  it('leaves archived tasks out', async () => {
    await handle.db
      .updateTable('tasks')
      .set({ archived_at: MAILBOX_NOW.toISOString() })
      .where('id', '=', 'tsk_roof')
      .execute();
    expect(await linkedTasksOf(handle.db, 'usr_ada', THREADS.roof)).toEqual([]);
  });
});
