import {
  Board,
  Company,
  Contact,
  Draft,
  EmailThread,
  LinkThreadResult,
  List,
  ReorderResult,
  SentMessage,
  Task,
  ThreadAnalysis,
} from '@threadwork/shared/schemas';
import { describe, expect, it } from 'vitest';
import creates from '../../src/creates/index.ts';
import * as resources from '../../src/creates/resources.ts';
import searches, { searchOrCreates } from '../../src/searches/index.ts';
import triggers from '../../src/triggers/index.ts';
import { CREATE_KEYS, SEARCH_KEYS } from '../helpers/keys.ts';
import { isTitleCase } from '../helpers/style.ts';

// The contract (keys letter for letter) and Zapier's publishing style, checked over every action and search.

type Field = Record<string, unknown>;
type Definition = {
  key: string;
  noun: string;
  display: { label: string; description: string };
  operation: { inputFields: unknown[]; sample: Record<string, unknown>; outputFields: Field[] };
};
const all = [...creates, ...searches] as unknown as Definition[];

describe('the app’s actions and searches', () => {
  it('are exactly the keys of the contract', () => {
    expect(creates.map((create) => create.key)).toEqual(CREATE_KEYS);
    expect(searches.map((search) => search.key)).toEqual(SEARCH_KEYS);
    expect(searchOrCreates.map(({ search, create }) => [search, create])).toEqual([
      ['find_task', 'create_task'],
      ['find_contact', 'create_contact'],
      ['find_company', 'create_company'],
    ]);
  });

  it.each(all.map((definition) => [definition.key, definition] as const))(
    '%s follows the publishing style',
    (_, definition) => {
      expect(isTitleCase(definition.display.label), definition.display.label).toBe(true);
      const verbs = CREATE_KEYS.includes(definition.key) ? /^(Creates|Updates|Deletes) / : /^Finds /;
      expect(definition.display.description).toMatch(verbs);
      expect(definition.display.description).toMatch(/\.$/);
      expect(Object.keys(definition.operation.sample).length).toBeGreaterThan(0);
      expect(definition.operation.outputFields.length).toBeGreaterThan(0);
      for (const field of definition.operation.outputFields) {
        expect(isTitleCase(String(field['label'])), String(field['label'])).toBe(true);
      }
      const plain = definition.operation.inputFields.filter(
        (field): field is Field => typeof field === 'object',
      );
      for (const field of plain) {
        expect(isTitleCase(String(field['label'])), String(field['label'])).toBe(true);
        // Every input explains itself with an example.
        expect(String(field['helpText']), `${definition.key}.${field['key']}`).toMatch(/e\.g\./);
      }
    },
  );

  it('link every id a search can find to that search, and cascade dropdowns team → board → list', () => {
    // Find Task by ID takes an ID mapped from an earlier step: its input is the ID itself, not a picker.
    const fields = all
      .filter((definition) => definition.key !== 'find_task_by_id')
      .flatMap((definition) =>
        definition.operation.inputFields.filter((field): field is Field => typeof field === 'object'),
      );
    const byKey = (key: string) => fields.filter((field) => field['key'] === key);
    // A picker paired with its search: Zapier offers "add a search step" only when both are set.
    const pickers = [
      ['task_id', 'tasks.id.title', 'find_task.id'],
      ['after_task_id', 'tasks.id.title', 'find_task.id'],
      ['thread_id', 'threads.id.subject', 'find_thread.thread_id'],
      ['contact_id', 'contacts.id.name', 'find_contact.id'],
      ['company_id', 'companies.id.name', 'find_company.id'],
      ['assignee_email', 'members.email.display_name', 'find_member.email'],
    ];
    for (const [key, dynamic, search] of pickers) {
      expect(byKey(key!).length, key).toBeGreaterThan(0);
      for (const field of byKey(key!)) expect(field, key).toMatchObject({ dynamic, search });
    }
    for (const field of byKey('team_id')) expect(field['dynamic']).toBe('teams.id.name');
    for (const field of byKey('board_id')) expect(field['dynamic']).toBe('boards.id.name');
    for (const field of byKey('list_id')) expect(field['dynamic']).toBe('lists.id.name');
  });

  it('point every dropdown and search at a trigger and a search whose samples hold the named fields', () => {
    const fields = all.flatMap((definition) =>
      definition.operation.inputFields.filter((field): field is Field => typeof field === 'object'),
    );
    const dropdowns = new Map(
      (triggers as unknown as Array<{ key: string; operation: { sample: Record<string, unknown> } }>).map(
        (trigger) => [trigger.key, trigger.operation.sample],
      ),
    );
    const found = new Map(all.map((definition) => [definition.key, definition.operation.sample]));
    for (const field of fields) {
      if (typeof field['dynamic'] === 'string') {
        const [trigger, value, label] = field['dynamic'].split('.');
        expect(dropdowns.get(trigger!), field['dynamic']).toHaveProperty(value!);
        expect(dropdowns.get(trigger!), field['dynamic']).toHaveProperty(label!);
      }
      if (typeof field['search'] === 'string') {
        const [search, value] = field['search'].split('.');
        expect(found.get(search!), field['search']).toHaveProperty(value!);
      }
    }
  });

  it('have samples that are real answers of the service (parsed by the shared schemas)', () => {
    const schemas = [
      [resources.task, Task],
      [resources.board, Board],
      [resources.list, List],
      [resources.contact, Contact],
      [resources.company, Company],
      [resources.thread, EmailThread],
      [resources.draft, Draft],
      [resources.sentMessage, SentMessage],
      [resources.analysis, ThreadAnalysis],
      [resources.reorderResult, ReorderResult],
      [resources.linkThreadResult, LinkThreadResult],
    ] as const;
    for (const [resource, schema] of schemas) expect(schema.parse(resource.sample)).toEqual(resource.sample);
  });

  it('have output fields for the sample’s own fields, with their v2 names at the top level', () => {
    for (const definition of all) {
      const keys = new Set(
        definition.operation.outputFields.map((field) => String(field['key']).split(/__|\[\]/)[0]),
      );
      for (const key of Object.keys(definition.operation.sample)) {
        expect(keys.has(key), `${definition.key}: ${key}`).toBe(true);
      }
    }
  });
});
