// The events area, one idea per file: events/record.ts (recording each event and choosing who hears of
// it), events/outbox.ts (the delivery outbox), events/listeners.ts (whether anyone listens at all) and
// events/webhook-body.ts (the bytes a v2 delivery sends).
export { subscriptionsChanged } from './events/listeners.ts';
export {
  enqueueDeliveries,
  enqueueDelivery,
  type NewDelivery,
  type SubscriptionKind,
} from './events/outbox.ts';
export {
  recordReplyReceived,
  recordTaskEvent,
  recordTestEvent,
  type TaskChange,
  type TaskEventKind,
  V1_ACTIONS_BY_KIND,
} from './events/record.ts';
export { eventBody } from './events/webhook-body.ts';
