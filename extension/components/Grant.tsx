/**
 * Asking for access to the service from a click, and saying where that stands. In the panel's frame a
 * browser may refuse to ask: the settings page then opens in a tab at its "Allow access" button, and the
 * panel says to finish there (never a way back to the same panel).
 */
import { useState } from 'preact/hooks';
import type { Send } from '../lib/messaging.ts';
import type { Access, AccessAnswer } from '../lib/ui/access.ts';

export type GrantState = 'idle' | 'waiting' | 'granted' | 'denied' | 'elsewhere' | 'refused';

export interface Grant {
  state: GrantState;
  /** Asks for `origin`. Call it synchronously in a click's handler: the browser asks only then. */
  ask(origin: string): Promise<AccessAnswer>;
  /** Access is there (granted here or elsewhere): nothing more to say. */
  clear(): void;
}

/** `inPanel`: asked from the panel's frame, where a refusal sends the user to the settings page. */
export function useGrant(access: Access, send: Send, inPanel: boolean): Grant {
  const [state, setState] = useState<GrantState>('idle');
  return {
    state,
    clear: () => setState('idle'),
    ask(origin) {
      const answer = access.ask(origin);
      setState('waiting');
      return answer.then(async (result) => {
        if (result !== 'refused' || !inPanel) {
          setState(result);
          return result;
        }
        // The browser would not ask from here: no need to, when access is there already; else the settings
        // page asks, in a tab of its own.
        const has = await send({ type: 'access.has', origin }).catch(() => ({ granted: false }));
        if (has.granted) {
          setState('granted');
          return 'granted';
        }
        await send({ type: 'options.open', grant: true }).catch(() => {});
        setState('elsewhere');
        return result;
      });
    },
  };
}

/** One line on where the request for access stands (nothing while nothing was asked). */
export function GrantStatus({ state, host }: { state: GrantState; host: string }) {
  const text = {
    idle: null,
    granted: null,
    waiting: `Waiting for your answer in the browser’s prompt: allow Threadwork to reach ${host}.`,
    denied: `Access to ${host} was not allowed, so Threadwork cannot reach your service. Ask again with “Allow access”.`,
    elsewhere: `Your browser asks for access in the settings page: allow it there, in the tab that just opened. Then come back: this panel picks it up.`,
    refused: `Your browser would not ask for access to ${host} here.`,
  }[state];
  if (text === null) return null;
  const problem = state === 'denied' || state === 'refused';
  return (
    <p
      class={problem ? 'tw-warning' : 'tw-progress'}
      role={problem ? 'alert' : 'status'}
      data-testid="threadwork-grant-status"
      data-state={state}
    >
      {text}
    </p>
  );
}
