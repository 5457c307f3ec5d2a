/**
 * The connection and the dropdowns against a live reference server: the real token exchange, its error
 * messages, the label from GET /v2/me, and the team → board → list cascade.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import type { WebhookReceiver } from '../../../test/e2e/test/helpers/receiver.ts';
import {
  App,
  appTester,
  authTest,
  connectionLabel,
  type Operation,
  rejection,
  sessionPerform,
  zapierMessage,
} from '../helpers/auth.ts';
import { IDS, startConnectedServer, startReceiver, THREADS } from '../helpers/live.ts';

function dropdown(key: string): Operation {
  const trigger = (App.triggers as unknown as Record<string, { operation: { perform: Operation } }>)[key];
  return trigger!.operation.perform;
}

let server: LiveServer;
let authData: Record<string, string>;
let notTheService: WebhookReceiver;

beforeAll(async () => {
  ({ server, authData } = await startConnectedServer());
  notTheService = await startReceiver();
});

afterAll(async () => {
  await notTheService?.close();
  await server?.stop();
});

describe('connection', () => {
  it('tests with GET /v2/me and labels the connection with the display name and email', async () => {
    const me = await appTester(authTest, { authData });
    expect(me).toMatchObject({ user_id: IDS.ada, email: 'ada@example.com', display_name: 'Ada Lovelace' });
    expect(await appTester(connectionLabel, { authData, inputData: me })).toBe(
      'Ada Lovelace (ada@example.com)',
    );
  });

  it('answers a wrong secret, and a wrong key name likewise: the key may have been revoked, reconnect', async () => {
    for (const wrong of [{ api_secret: 'not-the-secret0' }, { api_key_name: 'Not Zapier' }]) {
      const error = await rejection(appTester(sessionPerform, { authData: { ...authData, ...wrong } }));
      const message = zapierMessage(error);
      expect(message).toContain('this key may have been revoked: reconnect');
      expect(message).toContain(`in your account's API keys at ${server.origin}/keys`);
      expect(message).toContain('check the email, the key name, and the API key and secret');
    }
  });

  it('says a URL that is some other server is not the service', async () => {
    const origin = new URL(notTheService.url).origin;
    const error = await rejection(appTester(sessionPerform, { authData: { ...authData, origin } }));
    expect(zapierMessage(error)).toContain(`${origin} is not the service`);
  });

  it.each([
    ['with its API root', (origin: string) => `${origin}/v2`],
    ['as a page of the service, from the browser', (origin: string) => `${origin}/mail/18c2f0a1b2c3d4e5`],
    ['without http:// (a service on this computer)', (origin: string) => origin.replace(/^http:\/\//, '')],
  ])('connects with the service URL pasted %s', async (_what, pasted) => {
    const { sessionKey } = await appTester(sessionPerform, {
      authData: { ...authData, origin: pasted(server.origin) },
    });
    expect(sessionKey.split('.')).toHaveLength(3);
    const me = await appTester(authTest, {
      authData: { ...authData, origin: pasted(server.origin), sessionKey },
    });
    expect(me).toMatchObject({ email: 'ada@example.com' });
  });
});

describe('dropdowns', () => {
  it('cascade team → board → list', async () => {
    const teams = await appTester(dropdown('teams'), { authData, meta: { page: 0 } });
    expect(teams.map((team: { id: string }) => team.id)).toContain(IDS.paidTeam);
    const boards = await appTester(dropdown('boards'), {
      authData,
      inputData: { team_id: IDS.paidTeam },
      meta: { page: 0 },
    });
    expect(boards.map((board: { id: string }) => board.id).sort()).toEqual(
      [IDS.board, IDS.salesBoard].sort(),
    );
    const lists = await appTester(dropdown('lists'), {
      authData,
      inputData: { board_id: IDS.board },
      meta: { page: 0 },
    });
    expect(lists.map((list: { name: string }) => list.name)).toEqual(['To do', 'Doing', 'Done']);
  });

  it('boards without a team lists the boards of every paid team (an unpaid one is left out, not an error)', async () => {
    const boards = await appTester(dropdown('boards'), { authData, inputData: {}, meta: { page: 0 } });
    const ids = boards.map((board: { id: string }) => board.id);
    expect(ids).toEqual(expect.arrayContaining([IDS.board, IDS.salesBoard]));
    expect(ids).not.toContain(IDS.unpaidBoard);
  });

  it('threads searches the mailbox', async () => {
    const threads = await appTester(dropdown('threads'), {
      authData,
      inputData: { q: 'subject:roof' },
      meta: { page: 0 },
    });
    expect(threads.map((thread: { id: string }) => thread.id)).toEqual([THREADS.roof.id]);
    expect(threads[0].subject).toBe(THREADS.roof.subject);
  });
});
