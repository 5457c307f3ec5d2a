import { randomUUID } from 'node:crypto';
import type { LegacyClient, Task, ThreadworkClient } from '@threadwork/shared';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { clientsFor, v2Client } from '../lib/clients.ts';
import { type ErrorContext, withZapierErrors } from '../lib/errors.ts';
import { DEDUPE_KEY, MAX_ONCE_ATTEMPTS, onceKey, runKey, spentKey } from '../lib/idempotency.ts';
import { runOf } from '../lib/run.ts';
import { dedupeKeyField, type InputField, Inputs, invalid } from './fields.ts';
import type { OutputField, Resource } from './resources.ts';
import { withFieldLabels } from './task-output.ts';

/**
 * The one shape every action (create) and search is built from: display texts, input fields, the resource
 * it returns (sample and output fields) and a `perform` that gets the clients, the read inputs and the
 * step's Idempotency-Key. Built here, once, for every operation (docs/zapier-actions.md):
 * - every action gets the optional "Only Once Per" input (`dedupe_key`) and its keys from `idempotencyKey()`
 *   (one per run of the step, or derived from that input; see lib/idempotency.ts);
 * - errors from the service become Zapier errors with a human message naming inputs by their labels.
 */

/** Input fields computed when the Zap editor asks (e.g. a board's custom fields); may call the service. */
export type DynamicFields = (z: ZObject, bundle: Bundle) => Promise<InputField[]>;

export interface ActionContext {
  z: ZObject;
  bundle: Bundle;
  input: Inputs;
  /** The v2 client over `z.request` (one attempt: retries are Zapier's). */
  v2(): ThreadworkClient;
  /** The v1 client over `z.request`, for the operations only v1 has. */
  v1(): LegacyClient;
  /**
   * This run's Idempotency-Key: the same for every call within one run (the client's retries resend it),
   * new for the next run, unless the user set "Only Once Per". `variant` tells apart the separate writes of
   * one run that must not share a key (e.g. a second attempt that must run anew).
   */
  idempotencyKey(variant?: string): string;
  /**
   * Notes what the run has done so far, in words ("created the task \"Call Bob\" (tsk_1)"), so that a later
   * failure of the same run says it (lib/errors.ts).
   */
  done(what: string): void;
}

interface OperationSpec<T> {
  key: string;
  noun: string;
  /** Title Case, e.g. "Create Task". */
  label: string;
  /** Begins "Creates", "Updates", … (actions) or "Finds" (searches). */
  description: string;
  inputFields: Array<InputField | DynamicFields>;
  resource: Resource<T>;
}

export interface ActionSpec<T> extends OperationSpec<T> {
  perform(context: ActionContext): Promise<T>;
}

export interface SearchSpec<T> extends OperationSpec<T> {
  perform(context: ActionContext): Promise<T[]>;
}

export interface Operation<R = unknown> {
  key: string;
  noun: string;
  display: { label: string; description: string };
  operation: {
    inputFields: Array<InputField | DynamicFields>;
    perform: (z: ZObject, bundle: Bundle) => Promise<R>;
    sample: Record<string, unknown>;
    outputFields: OutputField[];
  };
}

async function contextOf(key: string, z: ZObject, bundle: Bundle, attempt: number): Promise<ActionContext> {
  const inputData = (bundle.inputData ?? {}) as Record<string, unknown>;
  const input = new Inputs(inputData);
  const once = input.text(DEDUPE_KEY);
  const run = randomUUID();
  return {
    z,
    bundle,
    input,
    ...(await clientsFor(z, bundle)),
    idempotencyKey: (variant) =>
      once === undefined ? runKey(key, run, variant) : onceKey(key, once, attempt, variant),
    done: (what) => {
      runOf(bundle).done.push(what);
    },
  };
}

/**
 * What error messages need of a step: each input's label, and the values the user gave. Fields built when
 * the editor asked (a board's custom fields) carry their label in their meta, which Zapier hands back.
 */
function errorContext(inputFields: OperationSpec<unknown>['inputFields'], bundle: Bundle): ErrorContext {
  const labels: Record<string, string> = {};
  const types: Record<string, string | undefined> = {};
  const offered = (bundle.meta as { inputFields?: Record<string, Record<string, unknown>> } | undefined)
    ?.inputFields;
  for (const [key, meta] of Object.entries(offered ?? {})) {
    if (typeof meta?.['label'] === 'string') labels[key] = meta['label'];
  }
  for (const field of inputFields) {
    if (typeof field === 'function') continue;
    labels[field.key] = field.label;
    types[field.key] = field.type;
  }
  return { labels, types, inputs: (bundle.inputData ?? {}) as Record<string, unknown> };
}

/**
 * Zapier's editor requires a required input, but a value mapped from an earlier step may still arrive empty
 * or as spaces (an empty email body, a blank title): such a step is refused by the input's label before
 * anything is sent.
 */
function requireFilledIn(inputFields: OperationSpec<unknown>['inputFields'], bundle: Bundle): void {
  const input = new Inputs(bundle.inputData as Record<string, unknown>);
  for (const field of inputFields) {
    if (typeof field === 'function' || field.required !== true) continue;
    const filled = field.list === true ? input.list(field.key) : input.text(field.key);
    if (filled === undefined) {
      throw invalid(
        field.key,
        'is required, but it is empty (a value mapped from an earlier step may be blank)',
      );
    }
  }
}

function define<T, R>(
  spec: OperationSpec<T>,
  inputFields: OperationSpec<T>['inputFields'],
  perform: (context: ActionContext) => Promise<R>,
): Operation<R> {
  return {
    key: spec.key,
    noun: spec.noun,
    display: { label: spec.label, description: spec.description },
    operation: {
      inputFields,
      perform: withZapierErrors(
        async (z, bundle) => {
          requireFilledIn(inputFields, bundle);
          const once = new Inputs(bundle.inputData as Record<string, unknown>).text(DEDUPE_KEY) !== undefined;
          // With "Only Once Per", an attempt whose key is spent (a replayed failure, or other inputs under the
          // same value) gives way to the next attempt's key; the last attempt's answer stands.
          for (let attempt = 0; ; attempt++) {
            try {
              const result = await perform(await contextOf(spec.key, z, bundle, attempt));
              return spec.resource.labelsCustomFields === true ? await labelled(z, bundle, result) : result;
            } catch (error) {
              if (!once || attempt + 1 >= MAX_ONCE_ATTEMPTS || !spentKey(error)) throw error;
            }
          }
        },
        (bundle) => errorContext(inputFields, bundle),
      ),
      sample: spec.resource.sample as Record<string, unknown>,
      outputFields: spec.resource.outputFields,
    },
  };
}

/** A task (or tasks) with its custom fields' names and option labels (creates/task-output.ts). */
async function labelled<R>(z: ZObject, bundle: Bundle, result: R): Promise<R> {
  const client = await v2Client(z, bundle);
  if (Array.isArray(result)) return (await withFieldLabels(client, result as Task[])) as R;
  return (await withFieldLabels(client, [result as Task]))[0] as R;
}

/** An action: returns one object, the v2 object's own fields at the top level. */
export function defineAction<T extends object>(spec: ActionSpec<T>): Operation<T> {
  return define(spec, [...spec.inputFields, dedupeKeyField], spec.perform);
}

/** A search: returns the matches, best first (Zapier uses the first). */
export function defineSearch<T extends object>(spec: SearchSpec<T>): Operation<T[]> {
  return define(spec, spec.inputFields, spec.perform);
}
