import { DataSource, type Migration } from 'typeorm';

/** How long a process waits for another one migrating the same database before giving up (seconds). */
const MIGRATION_LOCK_WAIT_S = 600;
const POLL_MS = 500;

/**
 * Runs `work` (migrating) while this process holds the database's migration lock: on MySQL/MariaDB a
 * named lock (`GET_LOCK`, an ordinary privilege) on a connection of its own, so processes started
 * at once against one database migrate one after the other, and each one after the first finds the
 * schema up to date. On SQLite nothing is taken: several processes migrating one file at once are not
 * guarded (docs/SCALING.md: start one first).
 */
export async function withMigrationLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const type = dataSource.options.type;
  if (type !== 'mysql' && type !== 'mariadb') return work();
  const runner = dataSource.createQueryRunner('master');
  try {
    const [{ name }] = (await runner.query("SELECT LEFT(CONCAT('calendar_migrations.', DATABASE()), 64) AS name")) as Array<{
      name: string;
    }>;
    // asked without waiting, again and again, so that no statement outlives a query timeout
    const deadline = Date.now() + MIGRATION_LOCK_WAIT_S * 1000;
    let told = false;
    for (;;) {
      const [{ taken }] = (await runner.query('SELECT GET_LOCK(?, 0) AS taken', [name])) as Array<{ taken: number | string | null }>;
      if (Number(taken) === 1) break;
      if (Date.now() >= deadline)
        throw new Error(`Another process has been migrating this database for ${MIGRATION_LOCK_WAIT_S} s (lock ${name}); not migrating.`);
      if (!told) dataSource.logger.logMigration('Another process is migrating this database: waiting until it is done.');
      told = true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    try {
      return await work();
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [name]).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}

/**
 * A data source whose migrations (run at start, by the command-line tool, or by TypeORM's own
 * `migration:run`/`migration:revert`) take the migration lock first.
 */
export class MigrationLockingDataSource extends DataSource {
  override runMigrations(options?: Parameters<DataSource['runMigrations']>[0]): Promise<Migration[]> {
    return withMigrationLock(this, () => super.runMigrations(options));
  }

  override undoLastMigration(options?: Parameters<DataSource['undoLastMigration']>[0]): Promise<void> {
    return withMigrationLock(this, () => super.undoLastMigration(options));
  }
}
