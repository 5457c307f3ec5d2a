// Who listens changes: what storage knows of whether anyone subscribes is forgotten, and the console's
// open pages (its deliveries page lists subscriptions and hooks, its keys page counts them) hear of it.
import type { Executor } from '../../db/executor.ts';
import { forgetListeners } from '../../storage/listeners.ts';
import { noteChange } from './feed.ts';

/** Call after creating or deleting a v2 subscription or v1 hook (and after a rolled-back transaction). */
export function subscriptionsChanged(db: Executor): void {
  forgetListeners(db);
  noteChange(db, { topic: 'subscription' });
}
