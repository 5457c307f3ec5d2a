import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { analysis } from '../../src/creates/resources.ts';
import { idempotencyKey } from '../../src/lib/idempotency.ts';
import { CREATE_CASES, caseName } from './cases.ts';
import { operationSuite } from './suite.ts';
import { envelope, mockService, perform } from './support.ts';

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

operationSuite(CREATE_CASES);

describe('idempotency keys', () => {
  const writes = CREATE_CASES;

  it('every action sends an Idempotency-Key on its write, reads carry none', () => {
    for (const entry of writes) {
      const last = entry.requests.at(-1)!;
      expect(last.idempotencyKey, caseName(entry)).toMatch(new RegExp(`^zapier-${entry.key}-[0-9a-f]{40}$`));
      for (const read of entry.requests.filter((request) => request.method === 'GET')) {
        expect(read.idempotencyKey, caseName(entry)).toBeUndefined();
      }
    }
  });

  it('a replayed step sends the same key; a changed input or another action, another', () => {
    const inputs = { list_id: 'lst_todo', title: 'Call Bob' };
    expect(idempotencyKey('create_task', { ...inputs })).toBe(idempotencyKey('create_task', { ...inputs }));
    expect(idempotencyKey('create_task', { title: 'Call Bob', list_id: 'lst_todo' })).toBe(
      idempotencyKey('create_task', inputs),
    );
    expect(idempotencyKey('create_task', { ...inputs, title: 'Call Carol' })).not.toBe(
      idempotencyKey('create_task', inputs),
    );
    expect(idempotencyKey('create_task_from_thread', inputs)).not.toBe(idempotencyKey('create_task', inputs));
  });

  it('analyze_thread: a new message (mapped into message_id) gets a fresh analysis, not the replay', async () => {
    const answer = envelope(analysis.sample);
    const request = (message_id: string) => ({
      method: 'POST' as const,
      path: '/v2/email-threads/18c2f0a1b2c3d4e5/analysis',
      idempotencyKey: idempotencyKey('analyze_thread', { thread_id: '18c2f0a1b2c3d4e5', message_id }),
      reply: answer,
    });
    const service = mockService([request('18c2f0a1b2c3d4f0'), request('18c2f0a1b2c3d4f1')]);
    await perform('creates', 'analyze_thread', {
      thread_id: '18c2f0a1b2c3d4e5',
      message_id: '18c2f0a1b2c3d4f0',
    });
    await perform('creates', 'analyze_thread', {
      thread_id: '18c2f0a1b2c3d4e5',
      message_id: '18c2f0a1b2c3d4f1',
    });
    service.done();
  });

  it('the same step run twice sends the same key twice', async () => {
    const entry = CREATE_CASES.find((candidate) => candidate.key === 'create_task')!;
    const service = mockService([...entry.requests, ...entry.requests]);
    await perform(entry.kind, entry.key, entry.inputData);
    await perform(entry.kind, entry.key, entry.inputData);
    service.done();
    expect(service.count()).toBe(2);
  });
});
