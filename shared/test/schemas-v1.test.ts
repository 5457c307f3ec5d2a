import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  V1_ACTION_TARGETS,
  V1_ACTIONS,
  V1_PROVIDER_ID,
  V1Action,
  V1AssignRequest,
  V1Board,
  V1Created,
  V1CreateFromEmailRequest,
  V1CreateItemRequest,
  V1Item,
  V1ItemIdRequest,
  V1ListBoardsQuery,
  V1ListItemsQuery,
  V1MoveRequest,
  V1SubscribeRequest,
  V1Subscription,
  V1Success,
  V1Team,
  V1TokenRequest,
  V1TokenResponse,
  V1UnsubscribeRequest,
} from '../src/schemas/index.ts';
import { issuesOf, parseOk, rejectedPaths, v1Item, without } from './schema-examples.ts';

/** The frozen legacy interface: bare answers (no envelope); requests ignore unknown fields as v1 did. */

const THREAD = '18c2f0a1b2c3d4e5';
const MESSAGE = '18c2f0a1b2c3d4f0';

describe('v1 responses', () => {
  it('parses an unassigned item with its first thread', () => {
    const parsed = parseOk(V1Item, v1Item());
    expect(parsed).toEqual(v1Item());
    expect(parsed.assignedTo).toBe('');
    expect(parsed.firstThread?.received).toBe('2026-01-05T09:00:00.000Z');
  });

  it('parses an assigned item without a thread, due date or notes', () => {
    const item = {
      ...v1Item(),
      firstThread: null,
      dueDate: '2026-02-06T16:00:00.000Z',
      notes: 'call first',
      completed: true,
      assignedTo: 'Ada Lovelace',
      assignedToEmail: 'ada@example.com',
    };
    expect(parseOk(V1Item, item)).toEqual(item);
  });

  it('keeps fields added to an item', () => {
    const later = { ...v1Item(), shade: 'red', firstThread: { ...v1Item().firstThread, snippet: 'Hi' } };
    expect(parseOk(V1Item, later)).toEqual(later);
  });

  it('rejects an item missing a field or with a field of the wrong type', () => {
    expect(rejectedPaths(V1Item, without(v1Item(), 'listId'))).toEqual(['listId']);
    expect(rejectedPaths(V1Item, { ...v1Item(), completed: 'true' })).toEqual(['completed']);
    expect(
      rejectedPaths(V1Item, { ...v1Item(), firstThread: { title: 'x', received: 5, from: null } }),
    ).toEqual(['firstThread.received']);
  });

  it('parses a subscription', () => {
    const subscription = {
      id: '65a1f0c2e4b0a1b2c3d4e5f6',
      action: 'movedToList',
      entityId: 'lst_done',
      webhookURL: 'https://hooks.zapier.com/hooks/standard/1/abc/',
      apiService: 'zapier',
    };
    expect(parseOk(V1Subscription, subscription)).toEqual(subscription);
    expect(parseOk(V1Subscription, { ...subscription, apiService: null }).apiService).toBeNull();
    expect(rejectedPaths(V1Subscription, without(subscription, 'webhookURL'))).toEqual(['webhookURL']);
  });

  it('parses the small answers: teams, boards, created ids, success and the token', () => {
    expect(parseOk(z.array(V1Team), [{ id: 'team_acme', name: 'Acme' }])).toEqual([
      { id: 'team_acme', name: 'Acme' },
    ]);
    expect(parseOk(V1Board, { id: 'brd_ops', name: 'Ops' })).toEqual({ id: 'brd_ops', name: 'Ops' });
    expect(parseOk(V1Created, { id: 'tsk_1' })).toEqual({ id: 'tsk_1' });
    expect(parseOk(V1Success, { success: true })).toEqual({ success: true });
    expect(rejectedPaths(V1Success, { success: false })).toEqual(['success']);
    expect(parseOk(V1TokenResponse, { 'x-access-token': 'eyJhbGciOiJIUzI1NiJ9.e30.sig' })).toEqual({
      'x-access-token': 'eyJhbGciOiJIUzI1NiJ9.e30.sig',
    });
  });
});

describe('v1 requests', () => {
  it('ignores unknown fields instead of rejecting them', () => {
    const item = { listId: 'lst_todo', title: 'Call Bob', zapRunId: 'r_1' };
    expect(parseOk(V1CreateItemRequest, item)).toEqual({ listId: 'lst_todo', title: 'Call Bob' });
    expect(parseOk(V1ItemIdRequest, { itemId: 'tsk_1', extra: true })).toEqual({ itemId: 'tsk_1' });
    expect(parseOk(V1ListBoardsQuery, { teamId: 'team_acme', _: '1700000000' })).toEqual({
      teamId: 'team_acme',
    });
  });

  it('creates an item with a title and list, optional notes and due date', () => {
    const item = { listId: 'lst_todo', title: 'Call Bob', notes: null, dueDate: '2026-02-06T16:00:00.000Z' };
    expect(parseOk(V1CreateItemRequest, item)).toEqual(item);
    expect(rejectedPaths(V1CreateItemRequest, { listId: 'lst_todo' })).toEqual(['title']);
    expect(rejectedPaths(V1CreateItemRequest, { listId: 'lst_todo', title: 'x', dueDate: 'Friday' })).toEqual(
      ['dueDate'],
    );
  });

  it('lists items by exactly one of boardId or listId', () => {
    expect(parseOk(V1ListItemsQuery, { boardId: 'brd_ops' })).toEqual({ boardId: 'brd_ops' });
    expect(parseOk(V1ListItemsQuery, { listId: 'lst_todo' })).toEqual({ listId: 'lst_todo' });
    for (const query of [{}, { boardId: 'brd_ops', listId: 'lst_todo' }]) {
      expect(issuesOf(V1ListItemsQuery, query)[0]?.message).toMatch(/exactly one of boardId or listId/);
    }
  });

  describe('createFromEmail', () => {
    const fromEmail = {
      providerId: V1_PROVIDER_ID,
      listId: 'lst_leads',
      messageId: MESSAGE,
      threadId: THREAD,
      archive: true,
      listItem: { contentType: 'sale', title: 'ignored by the service' },
    };

    it('accepts the documented body for the supported provider', () => {
      expect(V1_PROVIDER_ID).toBe('gmail');
      expect(parseOk(V1CreateFromEmailRequest, fromEmail)).toEqual(fromEmail);
      expect(parseOk(V1CreateFromEmailRequest, without(fromEmail, 'listItem'))).toEqual(
        without(fromEmail, 'listItem'),
      );
    });

    it('checks providerId, saying which value it must have', () => {
      for (const providerId of ['outlook', 'GMAIL', '', undefined]) {
        const issues = issuesOf(V1CreateFromEmailRequest, { ...fromEmail, providerId });
        expect(issues.map((issue) => issue.path)).toEqual([['providerId']]);
        expect(issues[0]?.message).toMatch(/providerId must be "gmail"/);
      }
    });

    it('needs raw hex message and thread ids and a list', () => {
      expect(
        rejectedPaths(V1CreateFromEmailRequest, { ...fromEmail, messageId: '<abc@mail.example>' }),
      ).toEqual(['messageId']);
      expect(rejectedPaths(V1CreateFromEmailRequest, without(fromEmail, 'threadId'))).toEqual(['threadId']);
      expect(rejectedPaths(V1CreateFromEmailRequest, without(fromEmail, 'listId'))).toEqual(['listId']);
      expect(
        rejectedPaths(V1CreateFromEmailRequest, { ...fromEmail, listItem: { contentType: 'project' } }),
      ).toEqual(['listItem.contentType']);
    });
  });

  it('needs both itemId and assigneeEmail to assign, and both ids to move', () => {
    expect(parseOk(V1AssignRequest, { itemId: 'tsk_1', assigneeEmail: 'ada@example.com' })).toEqual({
      itemId: 'tsk_1',
      assigneeEmail: 'ada@example.com',
    });
    expect(rejectedPaths(V1AssignRequest, { itemId: 'tsk_1' })).toEqual(['assigneeEmail']);
    expect(rejectedPaths(V1MoveRequest, { listId: 'lst_done' })).toEqual(['itemId']);
    expect(rejectedPaths(V1ItemIdRequest, { itemId: '' })).toEqual(['itemId']);
  });

  it('needs the four token parameters', () => {
    const token = {
      email: 'ada@example.com',
      api_key: 'ak4f1c',
      api_secret: 'as9d2e',
      api_key_name: 'Zapier',
    };
    expect(parseOk(V1TokenRequest, token)).toEqual(token);
    expect(rejectedPaths(V1TokenRequest, without(token, 'api_key_name'))).toEqual(['api_key_name']);
  });

  it('subscribes to a documented action with an http(s) webhook URL', () => {
    const subscribe = {
      email: 'ada@example.com',
      action: 'itemCompleted',
      entityId: 'brd_ops',
      webhookURL: 'https://hooks.zapier.com/hooks/standard/1/abc/',
      apiService: 'zapier',
    };
    expect(parseOk(V1SubscribeRequest, subscribe)).toEqual(subscribe);
    expect(rejectedPaths(V1SubscribeRequest, { ...subscribe, action: 'itemMoved' })).toEqual(['action']);
    expect(rejectedPaths(V1SubscribeRequest, { ...subscribe, webhookURL: 'ftp://x.example/' })).toEqual([
      'webhookURL',
    ]);
    expect(rejectedPaths(V1SubscribeRequest, without(subscribe, 'entityId'))).toEqual(['entityId']);
    expect(parseOk(V1UnsubscribeRequest, { subscriptionId: 's_1' })).toEqual({ subscriptionId: 's_1' });
  });
});

describe('v1 actions', () => {
  it('knows the seven documented actions', () => {
    expect([...V1_ACTIONS].sort()).toEqual(
      [
        'assignedTo',
        'createOnBoard',
        'createOnList',
        'itemArchived',
        'itemCompleted',
        'itemDeleted',
        'movedToList',
      ].sort(),
    );
    for (const action of V1_ACTIONS) expect(V1Action.parse(action)).toBe(action);
  });

  it('subscribes every action on its object, with the entity its entityId names', () => {
    expect(Object.keys(V1_ACTION_TARGETS).sort()).toEqual([...V1_ACTIONS].sort());
    expect(V1_ACTION_TARGETS).toEqual({
      movedToList: { object: 'lists', entity: 'list' },
      createOnList: { object: 'items', entity: 'list' },
      createOnBoard: { object: 'items', entity: 'board' },
      itemCompleted: { object: 'items', entity: 'board' },
      itemArchived: { object: 'items', entity: 'board' },
      itemDeleted: { object: 'items', entity: 'board' },
      assignedTo: { object: 'items', entity: 'board' },
    });
  });
});
