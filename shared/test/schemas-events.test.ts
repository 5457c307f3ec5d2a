import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  EVENT_TYPES,
  EventType,
  KnownWebhookEvent,
  UnknownWebhookEvent,
  WebhookEvent,
} from '../src/schemas/index.ts';
import {
  emailMessage,
  emailThread,
  issuesOf,
  linkedTask,
  parseOk,
  saleTask,
  task,
  without,
} from './schema-examples.ts';

const CREATED_AT = '2026-01-05T10:00:01Z';

function event(type: string, data: unknown) {
  return { id: 'evt_01hq3w', type, created_at: CREATED_AT, data };
}

const replyData = () => ({
  thread: { ...emailThread(), linked_tasks: [linkedTask()] },
  message: emailMessage(),
  linked_tasks: [linkedTask()],
});

/** Every issue path of a rejected event, reached through unions as well. */
function issuePaths(input: unknown): string[] {
  const paths: string[] = [];
  const walk = (issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]) => {
    for (const issue of issues) {
      const path = [...prefix, ...issue.path];
      if (issue.code === 'invalid_union') for (const branch of issue.errors) walk(branch, path);
      paths.push(path.join('.'));
    }
  };
  walk(issuesOf(WebhookEvent, input), []);
  return paths;
}

describe('event types', () => {
  it('knows the event types of docs/webhooks.md', () => {
    expect([...EVENT_TYPES].sort()).toEqual(
      [
        'task.created',
        'task.updated',
        'task.completed',
        'task.uncompleted',
        'task.assigned',
        'task.moved',
        'task.archived',
        'task.deleted',
        'thread.reply_received',
        'webhook.test',
      ].sort(),
    );
    expect(EventType.safeParse('task.exploded').success).toBe(false);
  });
});

describe('known events', () => {
  const taskEvents = [
    'task.created',
    'task.updated',
    'task.completed',
    'task.uncompleted',
    'task.assigned',
    'task.archived',
    'task.deleted',
  ];

  it.each(taskEvents)('%s parses with the full task', (type) => {
    const body = event(type, { task: saleTask() });
    const parsed = parseOk(WebhookEvent, body);
    expect(parsed).toEqual(body);
    expect(parseOk(KnownWebhookEvent, body).type).toBe(type);
  });

  it.each(taskEvents)('%s is rejected without a valid task', (type) => {
    expect(issuePaths(event(type, {}))).toContain('data.task');
    expect(issuePaths(event(type, { task: without(task(), 'title') }))).toContain('data.task.title');
  });

  it('task.moved carries the lists it moved between', () => {
    const body = event('task.moved', { task: task(), from_list_id: 'lst_todo', to_list_id: 'lst_done' });
    const parsed = parseOk(WebhookEvent, body);
    expect(parsed).toEqual(body);
    expect(parsed.data).toMatchObject({ from_list_id: 'lst_todo', to_list_id: 'lst_done' });
  });

  it('task.moved is rejected without from_list_id or to_list_id', () => {
    expect(issuePaths(event('task.moved', { task: task(), from_list_id: 'lst_todo' }))).toContain(
      'data.to_list_id',
    );
    expect(issuePaths(event('task.moved', { task: task(), to_list_id: 'lst_done' }))).toContain(
      'data.from_list_id',
    );
  });

  it('task.updated carries what changed, each field with its value before', () => {
    const previous_attributes = {
      shade: 'none',
      custom_fields: [{ field_id: 'cf_prio', value: null }],
      assignee: { name: 'Dan', email: 'dan@example.com' },
    };
    const body = event('task.updated', { task: task(), previous_attributes });
    const parsed = parseOk(KnownWebhookEvent, body);
    expect(parsed).toEqual(body);
    if (parsed.type !== 'task.updated') throw new Error('parsed as another type');
    expect(parsed.data.previous_attributes?.custom_fields).toEqual([{ field_id: 'cf_prio', value: null }]);
    expect(issuePaths(event('task.updated', { task: task(), previous_attributes: { shade: 3 } }))).toContain(
      'data.previous_attributes.shade',
    );
  });

  it('thread.reply_received carries the thread, the message without bodies and the linked tasks', () => {
    const body = event('thread.reply_received', replyData());
    expect(parseOk(WebhookEvent, body)).toEqual(body);
    const untasked = event('thread.reply_received', { ...replyData(), linked_tasks: [] });
    expect(parseOk(WebhookEvent, untasked)).toEqual(untasked);
  });

  it('thread.reply_received is rejected without each of its parts', () => {
    for (const key of ['thread', 'message', 'linked_tasks'] as const) {
      expect(issuePaths(event('thread.reply_received', without(replyData(), key)))).toContain(`data.${key}`);
    }
    const badMessage = { ...replyData(), message: { ...emailMessage(), from: 'bob@stone.test' } };
    expect(issuePaths(event('thread.reply_received', badMessage))).toContain('data.message.from');
  });

  it('webhook.test names its subscription', () => {
    const body = event('webhook.test', { subscription_id: 'wh_reply' });
    expect(parseOk(WebhookEvent, body)).toEqual(body);
    expect(issuePaths(event('webhook.test', {}))).toContain('data.subscription_id');
  });

  it('keeps fields added to an event, its data and its task', () => {
    const body = {
      ...event('task.created', { task: { ...task(), score: 3 }, actor: { user_id: 'usr_ada' } }),
      api_version: '2.1',
    };
    expect(parseOk(WebhookEvent, body)).toEqual(body);
  });

  it('rejects an event without id or a valid created_at', () => {
    expect(issuePaths(without(event('task.created', { task: task() }), 'id'))).toContain('id');
    expect(issuePaths({ ...event('task.created', { task: task() }), created_at: 'yesterday' })).toContain(
      'created_at',
    );
  });
});

describe('a known type with bad data', () => {
  it('is rejected rather than accepted as an unknown event', () => {
    for (const body of [
      event('task.created', {}),
      event('task.moved', { task: task() }),
      event('thread.reply_received', { thread: emailThread() }),
      event('webhook.test', { subscription: 'wh_reply' }),
    ]) {
      expect(WebhookEvent.safeParse(body).success).toBe(false);
      expect(UnknownWebhookEvent.safeParse(body).success).toBe(false);
    }
  });

  it('reports what is wrong with the data, not only that the type is known', () => {
    const result = WebhookEvent.safeParse(event('task.moved', { task: task(), from_list_id: 'lst_todo' }));
    expect(result.success).toBe(false);
    const report = z.prettifyError(result.error!);
    expect(report).toContain('data.to_list_id');
    expect(report).not.toMatch(/known event type/);
  });
});

describe('unknown events', () => {
  it('parse with their data kept', () => {
    const body = event('board.renamed', {
      board: { id: 'brd_ops', name: 'Operations' },
      previous_name: 'Ops',
    });
    const parsed = parseOk(WebhookEvent, body);
    expect(parsed).toEqual(body);
    expect(parseOk(UnknownWebhookEvent, body)).toEqual(body);
  });

  it('keep unknown top-level fields and accept empty data', () => {
    const body = { ...event('contact.created', {}), api_version: '2.1' };
    expect(parseOk(WebhookEvent, body)).toEqual(body);
  });

  it('still need the event envelope', () => {
    expect(WebhookEvent.safeParse(event('board.renamed', 'renamed')).success).toBe(false);
    expect(WebhookEvent.safeParse(without(event('board.renamed', {}), 'created_at')).success).toBe(false);
    expect(WebhookEvent.safeParse({ ...event('board.renamed', {}), type: 7 }).success).toBe(false);
  });

  it('are never parsed as a known event', () => {
    for (const type of EVENT_TYPES) {
      expect(UnknownWebhookEvent.safeParse(event(type, {})).success).toBe(false);
    }
    expect(KnownWebhookEvent.safeParse(event('board.renamed', {})).success).toBe(false);
  });
});
