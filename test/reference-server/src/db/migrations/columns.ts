import type { ColumnDefinitionBuilder } from 'kysely';

/** The SQL dialects the query layer is written for; only the column helpers below may differ. */
export type DialectName = 'sqlite' | 'postgres';

/** An auto-incrementing integer primary key (outbox ordering). */
export function serialPrimaryKey(dialect: DialectName) {
  return (column: ColumnDefinitionBuilder) =>
    dialect === 'sqlite'
      ? column.primaryKey().autoIncrement()
      : column.primaryKey().generatedByDefaultAsIdentity();
}
