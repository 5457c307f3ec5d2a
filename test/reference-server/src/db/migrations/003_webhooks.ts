import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { type DialectName, serialPrimaryKey } from './columns.ts';

type AnyDatabase = Kysely<Record<string, never>>;

// Webhook subscriptions (v2), hook subscriptions (v1), and the delivery outbox both of them share.
// Deliveries name their subscription by kind + id rather than by foreign key: a deleted subscription
// leaves its delivery log behind, marked failed.
export function webhooksMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDatabase) {
      await db.schema
        .createTable('webhook_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('target_url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('filters', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('secrets', 'text', (c) => c.notNull())
        .addColumn('failing_since', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_subscriptions_user')
        .on('webhook_subscriptions')
        .columns(['user_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('v1_hook_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('webhook_url', 'text', (c) => c.notNull())
        .addColumn('api_service', 'text')
        .addColumn('failing_since', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('v1_hook_subscriptions_target')
        .on('v1_hook_subscriptions')
        .columns(['action', 'entity_id'])
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('seq', 'integer', serialPrimaryKey(dialect))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('manual', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('in_flight', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['status', 'in_flight', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_subscription')
        .on('webhook_deliveries')
        .columns(['kind', 'subscription_id', 'seq'])
        .execute();

      // The v1 hook body (the Item) of an event; the v2 body is built from the event itself.
      await db.schema
        .createTable('v1_hook_payloads')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_delivery_attempts')
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('attempted_at', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('duration_ms', 'double precision', (c) => c.notNull())
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('webhook_delivery_attempts_pk', ['delivery_id', 'number'])
        .execute();
    },
  };
}
