import { CustomField } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer, startTestServer, type TestServer } from './helpers/server.ts';
import { KEYS, tasksSeed } from './tasks-seed.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: tasksSeed });
});
afterAll(() => server.close());

const call = async (path: string, init?: Parameters<TestServer['v2']>[1]) =>
  readAnswer(await server.v2(path, init));
const createField = (boardId: string, body: unknown, key?: string) =>
  call(`/boards/${boardId}/custom-fields`, { method: 'POST', body, key });
const updateField = (id: string, body: unknown, key?: string) =>
  call(`/custom-fields/${id}`, { method: 'PATCH', body, key });

describe('GET /boards/{id}/custom-fields', () => {
  it('lists the board’s fields in order, with options for option types and null otherwise', async () => {
    const { status, body } = await call('/boards/brd_acme/custom-fields');
    expect(status).toBe(200);
    expect(body.data.map((field: CustomField) => field.id)).toEqual([
      'cf_prio',
      'cf_state',
      'cf_text',
      'cf_amount',
      'cf_done',
      'cf_when',
      'cf_reply',
    ]);
    expect(body.data[0]).toEqual({
      id: 'cf_prio',
      name: 'Priority',
      type: 'tag',
      ai: false,
      display_on_card: true,
      options: [
        { id: 'opt_high', label: 'High' },
        { id: 'opt_low', label: 'Low' },
      ],
    });
    expect(body.data[2]).toMatchObject({ id: 'cf_text', options: null });
    expect(body.data[6]).toMatchObject({ id: 'cf_reply', ai: true });
    expect(body.meta.pagination).toMatchObject({ has_more: false });
  });

  it('pages with limit and cursor', async () => {
    const first = (await call('/boards/brd_acme/custom-fields?limit=4')).body;
    expect(first.data).toHaveLength(4);
    const rest = (
      await call(`/boards/brd_acme/custom-fields?limit=4&cursor=${first.meta.pagination.next_cursor}`)
    ).body;
    expect(rest.data.map((field: CustomField) => field.id)).toEqual(['cf_done', 'cf_when', 'cf_reply']);
    expect(rest.meta.pagination.has_more).toBe(false);
  });

  it('404s a board of another team, 402s an unpaid one, 403s without customfields.read', async () => {
    expect((await call('/boards/brd_umbrella/custom-fields')).status).toBe(404);
    expect((await call('/boards/brd_garage/custom-fields')).status).toBe(402);
    const denied = await call('/boards/brd_acme/custom-fields', { key: KEYS.adaBoardsRead });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.required_scopes).toEqual(['customfields.read']);
  });
});

describe('POST /boards/{id}/custom-fields', () => {
  it('creates an option field with fresh opt_ ids, appended to the board', async () => {
    const { status, body } = await createField('brd_sales', {
      name: 'Stage',
      type: 'status',
      display_on_card: true,
      options: [{ label: 'Lead' }, { label: 'Won' }],
    });
    expect(status).toBe(200);
    expect(CustomField.safeParse(body.data).success).toBe(true);
    expect(body.data).toMatchObject({ name: 'Stage', type: 'status', ai: false, display_on_card: true });
    const ids = body.data.options.map((option: { id: string }) => option.id);
    expect(ids).toEqual([expect.stringMatching(/^opt_/), expect.stringMatching(/^opt_/)]);
    expect(new Set(ids).size).toBe(2);
    const listed = (await call('/boards/brd_sales/custom-fields')).body.data;
    expect(listed.at(-1)).toEqual(body.data);
  });

  it('creates a plain field without options, and an option field with an empty set', async () => {
    const text = await createField('brd_sales', { name: 'Website', type: 'url' });
    expect(text.body.data).toMatchObject({ type: 'url', display_on_card: false, options: null });
    const tags = await createField('brd_sales', { name: 'Labels', type: 'multiselect' });
    expect(tags.body.data.options).toEqual([]);
  });

  it('rejects display_on_card or options on a type that has no use for them', async () => {
    const card = await createField('brd_sales', { name: 'N', type: 'number', display_on_card: true });
    expect(card.status).toBe(400);
    expect(card.body.error.details).toEqual([expect.objectContaining({ path: 'display_on_card' })]);
    const options = await createField('brd_sales', { name: 'N', type: 'text', options: [{ label: 'x' }] });
    expect(options.status).toBe(400);
    expect(options.body.error.details).toEqual([expect.objectContaining({ path: 'options' })]);
  });

  it('needs customfields.write; 404s a board of another team', async () => {
    const denied = await createField('brd_acme', { name: 'N', type: 'text' }, KEYS.adaTasksOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.required_scopes).toEqual(['customfields.write']);
    expect((await createField('brd_umbrella', { name: 'N', type: 'text' })).status).toBe(404);
  });
});

describe('PATCH /custom-fields/{id}', () => {
  it('renames a field and changes display_on_card of a tag field', async () => {
    const field = (await createField('brd_acme', { name: 'Old', type: 'tag' })).body.data;
    const { status, body } = await updateField(field.id, { name: 'New', display_on_card: true });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: field.id, name: 'New', display_on_card: true, options: [] });
  });

  it('replaces the options: keeps and relabels by id, adds without id, and removes the rest from task values', async () => {
    const field = (
      await createField('brd_acme', {
        name: 'Colour',
        type: 'tag',
        options: [{ label: 'R' }, { label: 'G' }],
      })
    ).body.data;
    const [red, green] = field.options as { id: string }[];
    const task = (await call('/tasks', { method: 'POST', body: { list_id: 'lst_todo', title: 'colourful' } }))
      .body.data;
    const other = (
      await call('/tasks', { method: 'POST', body: { list_id: 'lst_todo', title: 'green only' } })
    ).body.data;
    await call(`/tasks/${task.id}`, {
      method: 'PATCH',
      body: { custom_fields: [{ field_id: field.id, value: [red!.id, green!.id] }] },
    });
    await call(`/tasks/${other.id}`, {
      method: 'PATCH',
      body: { custom_fields: [{ field_id: field.id, value: [green!.id] }] },
    });

    const { body } = await updateField(field.id, {
      options: [{ id: red!.id, label: 'Red' }, { label: 'Blue' }],
    });
    expect(body.data.options).toEqual([
      { id: red!.id, label: 'Red' },
      { id: expect.stringMatching(/^opt_/), label: 'Blue' },
    ]);
    expect((await call(`/tasks/${task.id}`)).body.data.custom_fields).toEqual([
      { field_id: field.id, value: [red!.id] },
    ]);
    expect((await call(`/tasks/${other.id}`)).body.data.custom_fields).toEqual([]);
    const blue = body.data.options[1].id;
    const set = await call(`/tasks/${task.id}`, {
      method: 'PATCH',
      body: { custom_fields: [{ field_id: field.id, value: [blue] }] },
    });
    expect(set.status).toBe(200);
    const removed = await call(`/tasks/${task.id}`, {
      method: 'PATCH',
      body: { custom_fields: [{ field_id: field.id, value: [green!.id] }] },
    });
    expect(removed.status).toBe(404);
    expect(removed.body.error.message).toContain(`option ${green!.id}`);
  });

  it('answers 404 naming an option id the field does not have, keeping the field as it was', async () => {
    const field = (await createField('brd_acme', { name: 'T', type: 'status', options: [{ label: 'A' }] }))
      .body.data;
    const { status, body } = await updateField(field.id, { options: [{ id: 'opt_high', label: 'stolen' }] });
    expect(status).toBe(404);
    expect(body.error).toMatchObject({
      code: 'not_found',
      message: `option opt_high of custom field ${field.id} was not found`,
    });
    const listed = (await call('/boards/brd_acme/custom-fields?limit=200')).body.data;
    expect(listed.find((entry: CustomField) => entry.id === field.id)).toEqual(field);
  });

  it('rejects display_on_card or options for a type without them, and any change to an AI field', async () => {
    const card = await updateField('cf_text', { display_on_card: true });
    expect(card.status).toBe(400);
    expect(card.body.error.details).toEqual([expect.objectContaining({ path: 'display_on_card' })]);
    const options = await updateField('cf_amount', { options: [{ label: 'x' }] });
    expect(options.status).toBe(400);
    expect(options.body.error.details).toEqual([expect.objectContaining({ path: 'options' })]);
    const ai = await updateField('cf_reply', { name: 'Mine now' });
    expect(ai.status).toBe(400);
    expect(ai.body.error.code).toBe('validation_error');
    expect((await updateField('cf_text', {})).status).toBe(400);
  });

  it('404s a field of another board the caller cannot see or an unknown one; needs customfields.write', async () => {
    const hidden = (await createField('brd_ada_own', { name: 'Private', type: 'text' })).body.data;
    expect((await updateField(hidden.id, { name: 'x' }, KEYS.danFull)).status).toBe(404);
    expect((await updateField('cf_nope', { name: 'x' })).status).toBe(404);
    expect((await updateField('cf_text', { name: 'x' }, KEYS.adaTasksOnly)).status).toBe(403);
  });
});
