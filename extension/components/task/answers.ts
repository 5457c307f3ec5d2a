/**
 * The service's answers the panel keeps from its last use (teams, boards, lists, members, fields), so that a
 * panel opened on a slow service shows the last choices at once and refreshes them as answers come. Kept in
 * `storage.local` for one account (service URL, email and key): another account starts empty. Only names
 * and ids: nothing secret.
 */
import { storage } from 'wxt/utils/storage';

export interface Answers {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

/** No kept answers (a panel that is not set up, or a test). */
export const NO_ANSWERS: Answers = { get: () => undefined, set: () => {} };

interface Stored {
  account: string;
  entries: [string, unknown][];
}

const item = storage.defineItem<Stored | null>('local:panelAnswers', { fallback: null });
/** Enough for every board and list a user moves between; the oldest go first. */
const LIMIT = 60;
const loaded = new Map<string, Promise<Answers>>();

/** The kept answers of `account`, read once per page. */
export function loadAnswers(account: string): Promise<Answers> {
  let answers = loaded.get(account);
  if (answers === undefined) {
    answers = item.getValue().then(
      (stored) => keep(account, stored?.account === account ? stored.entries : []),
      () => keep(account, []),
    );
    loaded.set(account, answers);
  }
  return answers;
}

function keep(account: string, initial: [string, unknown][]): Answers {
  const entries = new Map(initial);
  let writing = false;
  return {
    get: <T>(key: string) => entries.get(key) as T | undefined,
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      for (const oldest of entries.keys()) {
        if (entries.size <= LIMIT) break;
        entries.delete(oldest);
      }
      // Answers landing together are written once; a tab closed right after still has them kept.
      if (writing) return;
      writing = true;
      queueMicrotask(() => {
        writing = false;
        void item.setValue({ account, entries: [...entries] }).catch(() => {});
      });
    },
  };
}
