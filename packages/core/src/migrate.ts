/**
 * Applies the schema steps an object has not had yet, in order; the schema version row counts how
 * many have been applied. Steps are append-only: never edit one that has been deployed.
 *
 * @example
 * ctx.blockConcurrencyWhile(async () => migrate(ctx.storage.sql, MIGRATIONS));
 */
export function migrate(sql: SqlStorage, steps: readonly string[]): void {
  sql.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const current =
    sql.exec<{ version: number }>('SELECT version FROM schema_version').toArray()[0]?.version ?? 0;
  if (current >= steps.length) return;
  for (const step of steps.slice(current)) sql.exec(step);
  sql.exec('DELETE FROM schema_version');
  sql.exec('INSERT INTO schema_version (version) VALUES (?)', steps.length);
}
