import type { Trigger } from 'zapier-platform-core';

/** Every trigger of the app (hooks and dropdown helpers); the app is keyed by their `key`. */
const triggers: Trigger[] = [];

export default triggers;
