// Online backup of the embedded SQLite database (docs/OPERATIONS.md, "Backups and restore"). Safe while
// the server runs and writes: SQLite's backup API copies a consistent snapshot, pages still in the
// write-ahead log included, which copying the file would miss or tear. The copy is checked before this
// reports success.
//
//   node scripts/sqlite-backup.mjs <database file> <backup file>
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

const [source, target] = process.argv.slice(2);
if (!source || !target) {
  process.stderr.write('usage: node scripts/sqlite-backup.mjs <database file> <backup file>\n');
  process.exit(2);
}
if (existsSync(target)) {
  process.stderr.write(`${target} exists already; not overwriting it.\n`);
  process.exit(1);
}

try {
  const database = new Database(source, { fileMustExist: true });
  let pages;
  try {
    ({ totalPages: pages } = await database.backup(target));
  } finally {
    database.close();
  }
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  const integrity = copy.pragma('integrity_check', { simple: true });
  copy.close();
  if (integrity !== 'ok') throw new Error(`the copy fails its integrity check: ${integrity}`);
  process.stdout.write(`Backed up ${source} to ${target} (${pages} pages, integrity ok).\n`);
} catch (error) {
  process.stderr.write(`Backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
