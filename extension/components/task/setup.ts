/**
 * What the task panel reads before it asks the service anything: the settings, the last choice, the answers
 * kept from the last use and the kept drafts (all local: no round trip). The frame starts reading them as
 * soon as it loads (`prepareSetup`), while the page still sends what to show, so the first panel finds them
 * ready; a later panel (after the settings changed, say) reads them anew.
 */
import type { Send } from '../../lib/messaging.ts';
import type { Choice, SettingsView } from '../../lib/protocol.ts';
import { type Answers, loadAnswers, NO_ANSWERS } from './answers.ts';
import { draftsLoaded } from './useDraft.ts';

export interface Setup {
  settings: SettingsView;
  choice: Choice | null;
  answers: Answers;
}

export type SetupAnswer = Setup | { error: unknown };

interface Reading {
  promise: Promise<SetupAnswer>;
  /** The answer, once it came: a panel that mounts then needs no wait at all. */
  value?: SetupAnswer;
}

let prepared: Reading | null = null;

async function readSetup(send: Send): Promise<SetupAnswer> {
  try {
    const [{ settings, choice }] = await Promise.all([send({ type: 'settings.get' }), draftsLoaded()]);
    const account = [settings.origin, settings.email, settings.apiKey, settings.keyName].join('\n');
    const answers = settings.configured ? await loadAnswers(account) : NO_ANSWERS;
    return { settings, choice, answers };
  } catch (error) {
    return { error };
  }
}

/** Starts reading the setup for the first panel. */
export function prepareSetup(send: Send): void {
  const reading: Reading = { promise: readSetup(send) };
  void reading.promise.then((value) => {
    reading.value = value;
  });
  prepared = reading;
}

/** The setup for a panel that mounts now: the prepared one once, else read anew. */
export function takeSetup(send: Send): Reading {
  const reading = prepared ?? { promise: readSetup(send) };
  prepared = null;
  return reading;
}
