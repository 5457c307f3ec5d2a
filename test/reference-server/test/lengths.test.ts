// Lengths (docs/errors.md#lengths): a task title and every name at most 1,024 characters, task notes at most
// 65,536. Each request that takes one is tried at the limit (kept whole) and one past it (400
// validation_error naming the field and the limit, nothing written), on v2, v1 and the console; the seed is
// held to the same limits; a title taken from a long subject is cut; the OpenAPI document says maxLength.
import { MAX_NAME_LENGTH, MAX_NOTES_LENGTH, MAX_TITLE_LENGTH } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedInput } from '../src/index.ts';
import { startServer } from '../src/server.ts';
import { freshDatabase } from './helpers/database.ts';
import {
  type Answer,
  consoleApi,
  inboundMessage,
  offlineResolver,
  type ResponseBody,
  readAnswer,
  startTestServer,
  type TestServer,
} from './helpers/server.ts';
import { THREADS, tasksSeed } from './tasks-seed.ts';
import { v1Token } from './webhooks-support.ts';

const text = (length: number, unit = 'a') => unit.repeat(length);

interface Case {
  /** What is tried, e.g. `POST /v2/tasks title`. */
  name: string;
  /** The request with `value` at the field; answers the response. */
  send: (value: string) => Promise<Answer>;
  /** The field's path in a validation error's details. */
  path: string;
  limit: number;
  /** Where the value is in a success's body, to check it was kept whole. */
  kept: (body: ResponseBody) => unknown;
}

let server: TestServer;
let origin: string;
let token: string;
let fieldId: string;
let optionId: string;
let contactId: string;
let companyId: string;
beforeAll(async () => {
  server = await startTestServer({ seed: tasksSeed, console: true, testControl: true });
  origin = server.origin;
  token = await v1Token(server);
  const field = await readAnswer(
    await server.v2('/boards/brd_acme/custom-fields', {
      method: 'POST',
      body: { name: 'Size', type: 'select', options: [{ label: 'Small' }] },
    }),
  );
  fieldId = field.body.data.id;
  optionId = field.body.data.options[0].id;
  const contact = await readAnswer(
    await server.v2('/contacts', { method: 'POST', body: { team_id: 'team_acme', name: 'Eve' } }),
  );
  contactId = contact.body.data.id;
  const company = await readAnswer(
    await server.v2('/companies', { method: 'POST', body: { team_id: 'team_acme', name: 'Eve Ltd' } }),
  );
  companyId = company.body.data.id;
});
afterAll(() => server.close());

const v2 = async (method: string, path: string, body: unknown) =>
  readAnswer(await server.v2(path, { method, body }));
const v1 = async (path: string, body: unknown) =>
  readAnswer(await server.v1(path, { method: 'POST', token, body }));
const consolePost = async (path: string, body: unknown) =>
  readAnswer(await consoleApi(server, path, { method: 'POST', body: JSON.stringify(body) }));

const TITLE = MAX_TITLE_LENGTH;
const NAME = MAX_NAME_LENGTH;
const NOTES = MAX_NOTES_LENGTH;

const cases: Case[] = [
  {
    name: 'POST /v2/tasks title',
    send: (title) => v2('POST', '/tasks', { list_id: 'lst_todo', title }),
    path: 'title',
    limit: TITLE,
    kept: (body) => body.data.title,
  },
  {
    name: 'POST /v2/tasks notes',
    send: (notes) => v2('POST', '/tasks', { list_id: 'lst_todo', title: 'Noted', notes }),
    path: 'notes',
    limit: NOTES,
    kept: (body) => body.data.notes,
  },
  {
    name: 'POST /v2/boards name',
    send: (name) => v2('POST', '/boards', { team_id: 'team_acme', name }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'PATCH /v2/boards/{id} name',
    send: (name) => v2('PATCH', '/boards/brd_acme', { name }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'POST /v2/boards/{id}/lists name',
    send: (name) => v2('POST', '/boards/brd_acme/lists', { name }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'PATCH /v2/lists/{id} name',
    send: (name) => v2('PATCH', '/lists/lst_doing', { name }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'POST /v2/boards/{id}/custom-fields name',
    send: (name) => v2('POST', '/boards/brd_acme/custom-fields', { name, type: 'text' }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'POST /v2/boards/{id}/custom-fields option label',
    send: (label) =>
      v2('POST', '/boards/brd_acme/custom-fields', { name: 'Tagged', type: 'tag', options: [{ label }] }),
    path: 'options[0].label',
    limit: NAME,
    kept: (body) => body.data.options[0].label,
  },
  {
    name: 'PATCH /v2/custom-fields/{id} name',
    send: (name) => v2('PATCH', `/custom-fields/${fieldId}`, { name }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'PATCH /v2/custom-fields/{id} option label',
    send: (label) => v2('PATCH', `/custom-fields/${fieldId}`, { options: [{ id: optionId, label }] }),
    path: 'options[0].label',
    limit: NAME,
    kept: (body) => body.data.options[0].label,
  },
  {
    name: 'POST /v2/api-keys name',
    send: (name) => v2('POST', '/api-keys', { name, scopes: ['boards.read'] }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'POST /v2/contacts name',
    send: (name) => v2('POST', '/contacts', { team_id: 'team_acme', name }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'POST /v2/contacts company_name',
    send: (company) => v2('POST', '/contacts', { team_id: 'team_acme', name: 'Joe', company_name: company }),
    path: 'company_name',
    limit: NAME,
    kept: (body) => body.data.company.name,
  },
  {
    name: 'PATCH /v2/contacts/{id} last_name',
    send: (last) => v2('PATCH', `/contacts/${contactId}`, { last_name: last }),
    path: 'last_name',
    limit: NAME,
    kept: (body) => body.data.last_name,
  },
  {
    name: 'PATCH /v2/companies/{id} name',
    send: (name) => v2('PATCH', `/companies/${companyId}`, { name }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
  {
    name: 'POST /v2/email-threads/{id}/drafts subject',
    send: (subject) => v2('POST', `/email-threads/${THREADS.invoice}/drafts`, { body: 'Paid.', subject }),
    path: 'subject',
    limit: NAME,
    kept: (body) => body.data.subject,
  },
  {
    name: 'POST /v2/drafts subject',
    send: (subject) => v2('POST', '/drafts', { to: ['eve@client.test'], subject, body: 'Hello' }),
    path: 'subject',
    limit: NAME,
    kept: (body) => body.data.subject,
  },
  {
    name: 'POST /api/v1/items title',
    send: (title) => v1('/items', { listId: 'lst_todo', title }),
    path: 'title',
    limit: TITLE,
    kept: async (body) => (await readAnswer(await server.v2(`/tasks/${body.id}`))).body.data.title,
  },
  {
    name: 'POST /api/v1/items notes',
    send: (notes) => v1('/items', { listId: 'lst_todo', title: 'v1', notes }),
    path: 'notes',
    limit: NOTES,
    kept: async (body) => (await readAnswer(await server.v2(`/tasks/${body.id}`))).body.data.notes,
  },
  {
    name: 'the console: a new task’s title',
    send: (title) => consolePost('tasks', { list_id: 'lst_todo', title }),
    path: 'title',
    limit: TITLE,
    kept: (body) => body.data.title,
  },
  {
    name: 'the console: a new key’s name',
    send: (name) => consolePost('keys', { name, type: 'v2', scopes: ['boards.read'] }),
    path: 'name',
    limit: NAME,
    kept: (body) => body.data.name,
  },
];

describe('a value at the limit is kept whole; one character more is a 400 naming the field and the limit', () => {
  it.each(cases)('$name', async ({ send, path, limit, kept }) => {
    // An accented letter: one character in every count (a code unit, a code point, a grapheme).
    const atLimit = text(limit, 'é');
    const accepted = await send(atLimit);
    expect(accepted.status).toBe(200);
    expect(await kept(accepted.body)).toBe(atLimit);

    const refused = await send(text(limit + 1));
    expect(refused.status).toBe(400);
    const message = `at most ${limit.toLocaleString('en-US')} characters`;
    expect(refused.body.error).toMatchObject({
      code: 'validation_error',
      message: `invalid body: ${path}: ${message}`,
      details: [{ path, message }],
    });
  });

  it('writes nothing when a title is too long', async () => {
    const before = (await readAnswer(await server.v2('/tasks?list_id=lst_done&limit=200'))).body.data.length;
    expect((await v2('POST', '/tasks', { list_id: 'lst_done', title: text(TITLE + 1) })).status).toBe(400);
    const item = await v1('/items', { listId: 'lst_done', title: 'Short', notes: text(NOTES + 1) });
    expect(item.status).toBe(400);
    const after = (await readAnswer(await server.v2('/tasks?list_id=lst_done&limit=200'))).body.data.length;
    expect(after).toBe(before);
  });

  it('counts a title as sent, and stores it trimmed', async () => {
    const padded = (length: number) =>
      v2('POST', '/tasks', { list_id: 'lst_todo', title: ` ${text(length)} ` });
    const fits = await padded(TITLE - 2);
    expect(fits.status).toBe(200);
    expect(fits.body.data.title).toBe(text(TITLE - 2));
    expect((await padded(TITLE - 1)).status).toBe(400);
  });
});

describe('a title taken from a thread’s subject', () => {
  it('is cut to the limit, never inside a character, when the subject is longer', async () => {
    for (const [subject, expected] of [
      [text(3000, 'x'), text(TITLE, 'x')],
      // A character of two code units straddling the limit is left out whole.
      [`${text(TITLE - 1, 'x')}😀tail`, text(TITLE - 1, 'x')],
    ] as const) {
      const arrived = await inboundMessage(server, {
        mailbox: 'ada@example.com',
        message: { from: { email: 'long@talker.test', name: null }, subject, body_text: 'Long subject.' },
      });
      expect(arrived.status).toBe(200);
      const created = await v2('POST', '/tasks', { list_id: 'lst_todo', thread_id: arrived.body.thread_id });
      expect(created.status).toBe(200);
      expect(created.body.data.title).toBe(expected);
      // The thread keeps its subject, and the task's first_thread shows it as it is.
      expect(created.body.data.first_thread.title).toBe(subject);
    }
  });
});

describe('the seed', () => {
  it('is held to the same limits, naming the path and the limit', async () => {
    for (const [seed, problem] of [
      [
        { ...tasksSeed, tasks: [{ id: 'tsk_long', list_id: 'lst_todo', title: text(TITLE + 1) }] },
        'tasks[0].title: at most 1,024 characters',
      ],
      [
        {
          ...tasksSeed,
          tasks: [{ id: 'tsk_long', list_id: 'lst_todo', title: 'Ok', notes: text(NOTES + 1) }],
        },
        'tasks[0].notes: at most 65,536 characters',
      ],
      [
        {
          ...tasksSeed,
          boards: [
            {
              id: 'brd_long',
              team_id: 'team_acme',
              name: 'Ok',
              lists: [{ id: 'lst_x', name: text(NAME + 1) }],
            },
          ],
          tasks: [],
        },
        'boards[0].lists[0].name: at most 1,024 characters',
      ],
    ] satisfies [SeedInput, string][]) {
      await expect(
        startServer({ port: 0, ...(await freshDatabase(undefined)), seed, resolveHost: offlineResolver }),
      ).rejects.toThrow(problem);
    }
    const atLimit = await startServer({
      port: 0,
      ...(await freshDatabase(undefined)),
      seed: { ...tasksSeed, tasks: [{ id: 'tsk_full', list_id: 'lst_todo', title: text(TITLE) }] },
      resolveHost: offlineResolver,
    });
    await atLimit.close();
  });
});

describe('the OpenAPI document', () => {
  it('says maxLength on every limited field of the request bodies', async () => {
    const document = (await readAnswer(await fetch(`${origin}/v2/openapi.json`))).body;
    const property = (schema: string, ...path: string[]) => {
      let node = document.components.schemas[schema];
      for (const key of path) node = key === '[]' ? node.items : node.properties[key];
      return node;
    };
    expect(property('CreateTaskRequest', 'title')).toMatchObject({ minLength: 1, maxLength: TITLE });
    expect(property('CreateTaskRequest', 'notes')).toMatchObject({ maxLength: NOTES });
    expect(property('V1CreateItemRequest', 'title')).toMatchObject({ maxLength: TITLE });
    expect(property('CreateBoardRequest', 'name')).toMatchObject({ maxLength: NAME });
    expect(property('CreateCustomFieldRequest', 'options', '[]', 'label')).toMatchObject({ maxLength: NAME });
    expect(property('CreateApiKeyRequest', 'name')).toMatchObject({ maxLength: NAME });
    expect(property('CreateContactRequest', 'name')).toMatchObject({ maxLength: NAME });
    expect(property('CreateNewDraftRequest', 'subject')).toMatchObject({ maxLength: NAME });
  });
});
