// Every v2 event type can start a Zap (docs/architecture.md, "Add an event type"): each instant trigger
// is turned on as Zapier turns it on, and what it subscribes to, a v2 webhook on an event or a v1 hook on
// an action the service fires for an event (its table, V1_ACTIONS_BY_KIND), covers EVENT_TYPES but for
// the events no Zap starts on. A new event type fails here until it has a trigger or is named below.
import { EVENT_TYPES } from '@threadwork/shared/schemas';
import nock from 'nock';
import { expect, it } from 'vitest';
import { V1_ACTIONS_BY_KIND } from '../../test/reference-server/src/domain/events/record.ts';
import { appTester, authData, ORIGIN } from './helpers/auth.ts';
import { INSTANT_TRIGGER_COUNT, TRIGGER_KEYS } from './helpers/keys.ts';
import { strictNock } from './helpers/nock.ts';
import { triggerOperation } from './helpers/triggers.ts';

strictNock();

/** The events no Zap starts on: the test event is sent to one subscription at its owner's asking. */
const WITHOUT_TRIGGER = ['webhook.test'];

const TARGET_URL = 'https://hooks.zapier.test/hooks/standard/1/abc';

/** What turning trigger `key` on subscribes: the v2 events of its webhook, or its v1 action. */
async function subscribedBy(key: string): Promise<{ events?: string[]; action?: string }> {
  let seen: { events?: string[]; action?: string } = {};
  // The mocks of the trigger before, whichever of them it did not use.
  nock.cleanAll();
  nock(ORIGIN).post('/auth/api_token').query(true).reply(200, { 'x-access-token': 'minted' });
  nock(ORIGIN)
    .post('/v2/webhooks/subscriptions', (body: { events: string[] }) => {
      seen = { events: body.events };
      return true;
    })
    .optionally()
    .reply(200, {
      data: { id: 'wh_1', target_url: TARGET_URL, events: [], secret: 'whsec_1' },
      meta: { request_id: 'r' },
    });
  nock(ORIGIN)
    .post(/^\/api\/v1\/(items|lists)\/subscribe$/, (body: { action: string }) => {
      seen = { action: body.action };
      return true;
    })
    .optionally()
    .reply(200, { id: 'sub_1', action: 'x', entityId: 'x', webhookURL: TARGET_URL, apiService: 'zapier' });
  await appTester(triggerOperation(key, 'performSubscribe'), {
    authData: authData(),
    inputData: { team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_1' },
    targetUrl: TARGET_URL,
  });
  return seen;
}

it('every v2 event type starts some instant trigger, by a v2 webhook or a v1 hook, or is named as none', async () => {
  const reached = new Set<string>();
  for (const key of TRIGGER_KEYS.slice(0, INSTANT_TRIGGER_COUNT)) {
    const { events, action } = await subscribedBy(key);
    expect(events ?? action, `${key} subscribes to nothing`).toBeDefined();
    for (const event of events ?? []) reached.add(event);
    for (const [kind, actions] of Object.entries(V1_ACTIONS_BY_KIND)) {
      if (action !== undefined && actions.includes(action as never)) reached.add(`task.${kind}`);
    }
  }
  const missing = EVENT_TYPES.filter((type) => !reached.has(type) && !WITHOUT_TRIGGER.includes(type));
  expect(missing).toEqual([]);
  expect([...reached].filter((type) => !(EVENT_TYPES as readonly string[]).includes(type))).toEqual([]);
});
