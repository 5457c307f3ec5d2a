// Keys carry scopes, and no key can mint a stronger one (docs/scopes-and-keys.md): both kinds of key
// hold the scopes chosen at creation, a v1 session token holds its legacy key's scopes on v2, a caller
// grants only scopes it holds, and a seeded key without `scopes` holds every scope.
import {
  DEFAULT_SCOPES,
  InsufficientScopeError,
  LegacyClient,
  SCOPES,
  type Scope,
  type ThreadworkClient,
} from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS, demoSeed } from '../src/index.ts';
import { demoCredentials } from '../src/seed/demo.ts';
import { SECRETS } from './helpers/fixtures.ts';
import { mailboxWritesSeed, WRITE_SECRETS } from './helpers/mailbox-writes-fixtures.ts';
import { failure, readAnswer, startTestServer, type TestServer, typedClient } from './helpers/server.ts';

const ADA = 'ada@example.com';
const mail = { to: ['eve@example.com'], subject: 'From a Zap', body: 'Sent with a legacy key.' };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: mailboxWritesSeed });
});
afterAll(() => server.close());

/** ada's key with every scope, opt-in ones included. */
const adaAll = () => typedClient(server, { apiKey: WRITE_SECRETS.adaAll });
/** ada's key with every default scope (no opt-in ones). */
const adaDefault = () => typedClient(server, { apiKey: SECRETS.adaFull });

let names = 0;
const uniqueName = (base: string) => `${base} ${++names}`;

/** Creates a legacy key through `creator` and answers the typed v2 client over its v1 session token. */
async function legacyKey(creator: ThreadworkClient, scopes?: Scope[]) {
  const name = uniqueName('Zapier');
  const created = await creator.apiKeys.create({ name, type: 'legacy', ...(scopes ? { scopes } : {}) });
  const token = await new LegacyClient({
    origin: server.origin,
    email: ADA,
    apiKey: created.api_key!,
    apiSecret: created.api_secret!,
    apiKeyName: name,
  }).getToken();
  return { created, token, v2: typedClient(server, { accessToken: token }) };
}

async function keyIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const key of adaAll().apiKeys.list({ limit: 200 })) ids.push(key.id);
  return ids;
}

describe('creating keys with scopes', () => {
  it('a legacy key holds the scopes named, opt-in ones included, and lists them', async () => {
    const { created } = await legacyKey(adaAll(), ['email.send', 'tasks.read']);
    expect(created).toMatchObject({ type: 'legacy', scopes: ['email.send', 'tasks.read'] });
    const listed = (await adaAll().apiKeys.list({ limit: 200 })).data.find((key) => key.id === created.id);
    expect(listed).toMatchObject({ type: 'legacy', scopes: ['email.send', 'tasks.read'] });
    expect(listed).not.toHaveProperty('api_secret');
  });

  it('a key created without scopes holds every non-opt-in scope, of either kind', async () => {
    const v2 = await adaAll().apiKeys.create({ name: uniqueName('laptop') });
    const { created: legacy } = await legacyKey(adaAll());
    expect(v2.scopes).toEqual([...DEFAULT_SCOPES]);
    expect(legacy.scopes).toEqual([...DEFAULT_SCOPES]);
    expect(legacy.scopes).not.toContain('email.send');
    expect(legacy.scopes).not.toContain('drafts.delete');
  });

  it('a legacy key’s two halves are alphanumeric, long and never repeat', async () => {
    const first = await adaAll().apiKeys.create({ name: uniqueName('Make'), type: 'legacy' });
    const second = await adaAll().apiKeys.create({ name: uniqueName('Make'), type: 'legacy' });
    for (const key of [first, second]) {
      expect(key.api_key).toMatch(/^[0-9A-Za-z]{24}$/);
      expect(key.api_secret).toMatch(/^[0-9A-Za-z]{40}$/);
    }
    expect(second.api_key).not.toBe(first.api_key);
    expect(second.api_secret).not.toBe(first.api_secret);
  });
});

describe('no key can mint a stronger one', () => {
  it('refuses an opt-in scope the caller lacks, naming it, and creates nothing', async () => {
    const before = await keyIds();
    for (const type of ['v2', 'legacy'] as const) {
      const error = await failure(
        adaDefault().apiKeys.create({
          name: uniqueName('escalate'),
          type,
          scopes: ['boards.read', 'email.send'],
        }),
      );
      expect(error).toBeInstanceOf(InsufficientScopeError);
      expect(error.status).toBe(403);
      expect(error.details).toEqual({ required_scopes: ['email.send'] });
      expect(error.message).toContain('email.send');
    }
    expect(await keyIds()).toEqual(before);
  });

  it('names the first missing scope when several are', async () => {
    const narrow = await adaAll().apiKeys.create({ name: uniqueName('narrow'), scopes: ['keys.manage'] });
    const asNarrow = typedClient(server, { apiKey: narrow.secret! });
    const named = await failure(
      asNarrow.apiKeys.create({
        name: uniqueName('x'),
        scopes: ['keys.manage', 'tasks.write', 'email.send'],
      }),
    );
    expect(named.details).toEqual({ required_scopes: ['tasks.write'] });
    // Without scopes the new key would hold every default scope: the first of them it lacks is named.
    const implicit = await failure(asNarrow.apiKeys.create({ name: uniqueName('x') }));
    expect(implicit).toBeInstanceOf(InsufficientScopeError);
    expect(implicit.details).toEqual({ required_scopes: [DEFAULT_SCOPES[0]] });
    // What it holds it may grant.
    const same = await asNarrow.apiKeys.create({ name: uniqueName('copy'), scopes: ['keys.manage'] });
    expect(same.scopes).toEqual(['keys.manage']);
  });

  it('a session token grants only its legacy key’s scopes, down a chain of keys', async () => {
    const { v2: limited } = await legacyKey(adaAll(), ['keys.manage', 'boards.read']);
    const child = await limited.apiKeys.create({ name: uniqueName('child'), scopes: ['boards.read'] });
    expect(child.scopes).toEqual(['boards.read']);
    const escalate = await failure(
      limited.apiKeys.create({
        name: uniqueName('x'),
        type: 'legacy',
        scopes: ['boards.read', 'email.send'],
      }),
    );
    expect(escalate.details).toEqual({ required_scopes: ['email.send'] });
    // The child cannot even list keys: it lacks keys.manage.
    const grandchild = await failure(
      typedClient(server, { apiKey: child.secret! }).apiKeys.create({ name: uniqueName('x') }),
    );
    expect(grandchild.details).toEqual({ required_scopes: ['keys.manage'] });
  });
});

describe('legacy token auth on v2 carries the legacy key’s scopes', () => {
  it('sends email with an opted-in legacy key', async () => {
    const { v2 } = await legacyKey(adaAll(), ['email.send', 'email.metadata.read']);
    const sent = await v2.emails.send(mail);
    expect(sent.thread_id).toMatch(/^[0-9a-f]+$/);
    const thread = await adaAll().emailThreads.get(sent.thread_id);
    expect(thread).toMatchObject({ subject: 'From a Zap', direction: 'outbound' });
  });

  it('answers 403 naming email.send for a legacy key without it, and sends nothing', async () => {
    const { v2 } = await legacyKey(adaAll());
    const before = (await adaAll().emailThreads.search({ q: 'in:sent' })).data.length;
    const error = await failure(v2.emails.send(mail));
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect(error.details).toEqual({ required_scopes: ['email.send'] });
    expect((await adaAll().emailThreads.search({ q: 'in:sent' })).data.length).toBe(before);
  });

  it('a narrow legacy key’s token is narrow on v2 and on v1 alike', async () => {
    const { v2, token } = await legacyKey(adaAll(), ['tasks.read']);
    await expect(v2.tasks.get('tsk_1')).resolves.toMatchObject({ id: 'tsk_1' });
    const error = await failure(v2.teams.list());
    expect(error.details).toEqual({ required_scopes: ['boards.read'] });
    // v1 is held to the same scopes (v1-scopes.test.ts covers every endpoint).
    const teams = await readAnswer(await server.v1('/teams', { token }));
    expect(teams.status).toBe(403);
    expect(teams.body.error.details).toEqual({ required_scopes: ['boards.read'] });
    const items = await readAnswer(await server.v1('/items?listId=lst_todo', { token }));
    expect(items.status).toBe(200);
    expect(items.body.map((item: { id: string }) => item.id)).toContain('tsk_1');
    // GET /me needs no scope and leaves out `key` for a session token.
    const me = await v2.me.get();
    expect(me.user_id).toBe('usr_ada');
    expect(me).not.toHaveProperty('key');
  });
});

describe('seeded keys', () => {
  it('a seeded legacy key without scopes holds every scope: its token sends email', async () => {
    const listed = (await adaAll().apiKeys.list({ limit: 200 })).data.find(
      (key) => key.id === 'key_ada_legacy',
    );
    expect(listed?.scopes).toEqual([...SCOPES]);
    const token = await new LegacyClient({
      origin: server.origin,
      email: ADA,
      apiKey: SECRETS.legacy.api_key,
      apiSecret: SECRETS.legacy.api_secret,
      apiKeyName: SECRETS.legacy.api_key_name,
    }).getToken();
    const sent = await typedClient(server, { accessToken: token }).emails.send(mail);
    expect(sent.message_id).toBeTruthy();
  });

  it('a seed may list a legacy key’s scopes, and a v2 key without them holds every scope', async () => {
    const seeded = await startTestServer({
      seed: {
        ...mailboxWritesSeed,
        api_keys: [
          ...mailboxWritesSeed.api_keys,
          {
            id: 'key_ada_narrow_legacy',
            user_id: 'usr_ada',
            type: 'legacy',
            name: 'Narrow',
            api_key: 'narrowkey0123',
            api_secret: 'narrowsecret0123',
            scopes: ['boards.read'],
          },
          {
            id: 'key_ada_any',
            user_id: 'usr_ada',
            type: 'v2',
            name: 'any',
            secret: 'tw_test_any_0123456789',
          },
        ],
      },
    });
    try {
      const keys = (
        await typedClient(seeded, { apiKey: 'tw_test_any_0123456789' }).apiKeys.list({ limit: 200 })
      ).data;
      expect(keys.find((key) => key.id === 'key_ada_narrow_legacy')?.scopes).toEqual(['boards.read']);
      expect(keys.find((key) => key.id === 'key_ada_any')?.scopes).toEqual([...SCOPES]);
      const token = await new LegacyClient({
        origin: seeded.origin,
        email: ADA,
        apiKey: 'narrowkey0123',
        apiSecret: 'narrowsecret0123',
        apiKeyName: 'Narrow',
      }).getToken();
      const narrow = typedClient(seeded, { accessToken: token });
      await expect(narrow.teams.list()).resolves.toBeDefined();
      expect((await failure(narrow.emails.send(mail))).details).toEqual({ required_scopes: ['email.send'] });
    } finally {
      await seeded.close();
    }
  });

  it('the demo’s legacy key holds every scope, and the demo says so', async () => {
    const demo = await startTestServer({ seed: demoSeed });
    try {
      const token = await new LegacyClient({
        origin: demo.origin,
        email: DEMO_CREDENTIALS.email,
        apiKey: DEMO_CREDENTIALS.legacyApiKey,
        apiSecret: DEMO_CREDENTIALS.legacyApiSecret,
        apiKeyName: DEMO_CREDENTIALS.legacyKeyName,
      }).getToken();
      const client = typedClient(demo, { accessToken: token });
      const legacy = (await client.apiKeys.list()).data.find((key) => key.type === 'legacy');
      expect(legacy?.scopes).toEqual([...SCOPES]);
      await expect(client.emails.send({ ...mail, to: ['someone@example.com'] })).resolves.toMatchObject({
        thread_id: expect.any(String),
      });
      // It may also mint a key with an opt-in scope for someone else's tool.
      const minted = await client.apiKeys.create({ name: 'sender', scopes: ['email.send'] });
      expect(minted.scopes).toEqual(['email.send']);
    } finally {
      await demo.close();
    }
    expect(demoCredentials('http://127.0.0.1:8787')).toContain(
      'the v1 key holds every scope (email.send and drafts.delete included)',
    );
  });
});
