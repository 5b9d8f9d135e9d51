import pg from 'pg';
import { SERVICE_SCHEMAS } from '@ticketing/platform';

/** Every service's schema: each has its outbox, inbox and dead letters. */
export const SCHEMAS = SERVICE_SCHEMAS;

/** The stack's own database as its administrator reads it, to check what the services recorded. */
export function openDatabase(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', () => {}); // a restart of PostgreSQL ends idle sessions; the next query opens a new one
  return {
    rows: async <T = Record<string, any>>(sql: string, params: unknown[] = []) =>
      (await pool.query(sql, params)).rows as T[],
    /** Events written to an outbox and not yet published, across every service. */
    async unpublished(): Promise<number> {
      const counts = await Promise.all(
        SCHEMAS.map((schema) =>
          pool.query(`select count(*)::int as n from ${schema}.outbox where published_at is null`),
        ),
      );
      return counts.reduce((total, result) => total + result.rows[0].n, 0);
    },
    close: () => pool.end(),
  };
}

export type Database = ReturnType<typeof openDatabase>;
