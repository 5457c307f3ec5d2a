import { App, type Operation } from './auth.ts';

/** A trigger's operation function (`perform`, `performSubscribe`, …), as appTester takes it. */
export function triggerOperation(key: string, name = 'perform'): Operation {
  const trigger = (App.triggers as unknown as Record<string, { operation: Record<string, unknown> }>)[key];
  const fn = trigger?.operation[name];
  if (typeof fn !== 'function') throw new Error(`no ${name} on trigger ${key}`);
  return fn as Operation;
}
