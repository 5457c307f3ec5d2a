import { V1Item } from '@threadwork/shared';
import { describe, expect, it } from 'vitest';
import authentication from '../src/authentication.ts';
import triggers from '../src/triggers/index.ts';
import { INSTANT_TRIGGER_COUNT, TRIGGER_KEYS } from './helpers/keys.ts';
import { isTitleCase } from './helpers/style.ts';

type Field = Record<string, unknown>;
type Definition = {
  key: string;
  display: { label: string; description: string; hidden?: boolean };
  operation: { type: string; inputFields?: Field[]; sample: Record<string, unknown>; outputFields: Field[] };
};
const all = triggers as unknown as Definition[];

describe('the triggers', () => {
  it('are exactly the keys of the contract: instant hooks, then hidden dropdowns', () => {
    expect(all.map((trigger) => trigger.key)).toEqual(TRIGGER_KEYS);
    for (const trigger of all.slice(0, INSTANT_TRIGGER_COUNT)) {
      expect(trigger.operation.type, trigger.key).toBe('hook');
    }
    for (const trigger of all.slice(INSTANT_TRIGGER_COUNT)) {
      expect(trigger.operation.type, trigger.key).toBe('polling');
      expect(trigger.display.hidden, trigger.key).toBe(true);
    }
  });

  it.each(all.map((trigger) => [trigger.key, trigger] as const))(
    '%s follows the publishing style',
    (_, trigger) => {
      expect(isTitleCase(trigger.display.label), trigger.display.label).toBe(true);
      expect(trigger.display.description).toMatch(/^Triggers when .*\.$/);
      expect(Object.keys(trigger.operation.sample).length).toBeGreaterThan(0);
      for (const field of trigger.operation.outputFields) {
        expect(isTitleCase(String(field['label'])), String(field['label'])).toBe(true);
        const [head] = String(field['key']).split(/__|\[\]/);
        expect(trigger.operation.sample, `${trigger.key} sample lacks ${field['key']}`).toHaveProperty(head!);
      }
      for (const field of trigger.operation.inputFields ?? []) {
        expect(isTitleCase(String(field['label'])), String(field['label'])).toBe(true);
        expect(String(field['helpText']), `${trigger.key}.${field['key']}`).toMatch(/e\.g\./);
      }
    },
  );

  it('v1 samples are items as a hook delivers them (parsed by the shared schema)', () => {
    for (const trigger of all.slice(0, 7)) {
      expect(V1Item.safeParse(trigger.operation.sample).success, trigger.key).toBe(true);
      expect(trigger.operation.sample['task_id'], trigger.key).toMatch(/^tsk_/);
    }
  });

  it('cascade their dropdowns team → board → list', () => {
    const fields = all.flatMap((trigger) => trigger.operation.inputFields ?? []);
    for (const field of fields) {
      if (field['key'] === 'team_id') expect(field['dynamic']).toBe('teams.id.name');
      if (field['key'] === 'board_id') expect(field['dynamic']).toBe('boards.id.name');
      if (field['key'] === 'list_id') expect(field['dynamic']).toBe('lists.id.name');
    }
  });
});

describe('the connection', () => {
  it('asks for exactly the fields of the contract, each with help and an example', () => {
    expect(authentication.type).toBe('session');
    expect(authentication.fields.map((field) => field.key)).toEqual([
      'origin',
      'email',
      'api_key',
      'api_secret',
      'api_key_name',
    ]);
    for (const field of authentication.fields) {
      expect(isTitleCase(field.label), field.label).toBe(true);
      expect(field.helpText).toMatch(/e\.g\./);
    }
    expect(authentication.fields.find((field) => field.key === 'api_secret')?.type).toBe('password');
  });
});
