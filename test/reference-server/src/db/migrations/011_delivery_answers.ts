import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

type AnyDatabase = Kysely<Record<string, never>>;

// Each attempt logs the receiver's answer as Stripe shows it: its content-type and the first 4 KiB of
// its body (null when no answer came; attempts logged before this migration have none). And the
// deliveries of one event to one subscription (the original and its replays) are found together: once
// one succeeds, the others stop (docs/webhooks.md, "Delivery").
export function deliveryAnswersMigration(): Migration {
  return {
    async up(db: AnyDatabase) {
      await db.schema
        .alterTable('webhook_delivery_attempts')
        .addColumn('response_content_type', 'text')
        .execute();
      await db.schema.alterTable('webhook_delivery_attempts').addColumn('response_body', 'text').execute();
      await db.schema
        .createIndex('webhook_deliveries_event')
        .on('webhook_deliveries')
        .columns(['event_id', 'subscription_id'])
        .execute();
    },
  };
}
