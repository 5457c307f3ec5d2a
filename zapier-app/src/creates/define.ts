import type { LegacyClient, ThreadworkClient } from '@threadwork/shared';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { v1Client, v2Client } from '../lib/clients.ts';
import { withZapierErrors } from '../lib/errors.ts';
import { idempotencyKey } from '../lib/idempotency.ts';
import { type InputField, Inputs } from './fields.ts';
import type { OutputField, Resource } from './resources.ts';

/**
 * The one shape every action (create) and search is built from: display texts, input fields, the resource
 * it returns (sample and output fields) and a `perform` that gets the clients, the read inputs and the
 * step's Idempotency-Key. Errors from the service become Zapier errors with a human message here, once.
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
   * Derived from the step's inputs, so a replayed step repeats nothing. `variant` tells apart the requests
   * of one step that must not share a key (e.g. a second attempt that must run anew).
   */
  idempotencyKey(variant?: string): string;
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

function contextOf(key: string, z: ZObject, bundle: Bundle): ActionContext {
  const inputData = (bundle.inputData ?? {}) as Record<string, unknown>;
  return {
    z,
    bundle,
    input: new Inputs(inputData),
    v2: () => v2Client(z, bundle),
    v1: () => v1Client(z, bundle),
    idempotencyKey: (variant) =>
      idempotencyKey(key, variant === undefined ? inputData : { ...inputData, '#variant': variant }),
  };
}

function define<T, R>(spec: OperationSpec<T>, perform: (context: ActionContext) => Promise<R>): Operation<R> {
  return {
    key: spec.key,
    noun: spec.noun,
    display: { label: spec.label, description: spec.description },
    operation: {
      inputFields: spec.inputFields,
      perform: withZapierErrors((z, bundle) => perform(contextOf(spec.key, z, bundle))),
      sample: spec.resource.sample as Record<string, unknown>,
      outputFields: spec.resource.outputFields,
    },
  };
}

/** An action: returns one object, the v2 object's own fields at the top level. */
export function defineAction<T extends object>(spec: ActionSpec<T>): Operation<T> {
  return define(spec, spec.perform);
}

/** A search: returns the matches, best first (Zapier uses the first). */
export function defineSearch<T extends object>(spec: SearchSpec<T>): Operation<T[]> {
  return define(spec, spec.perform);
}
