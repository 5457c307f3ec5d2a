import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKey } from '../../src/lib/idempotency.ts';
import { CREATE_CASES, caseName } from './cases.ts';
import { operationSuite } from './suite.ts';
import { mockService, perform } from './support.ts';

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

  it('the same step run twice sends the same key twice', async () => {
    const entry = CREATE_CASES.find((candidate) => candidate.key === 'create_task')!;
    const service = mockService([...entry.requests, ...entry.requests]);
    await perform(entry.kind, entry.key, entry.inputData);
    await perform(entry.kind, entry.key, entry.inputData);
    service.done();
    expect(service.count()).toBe(2);
  });
});
