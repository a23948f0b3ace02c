// Fingerprint of an SQLite database for scripts/backup-restore-check.sh: one line per schema object
// (hash of its SQL) and per table (row count and a hash of every row, in a fixed order). Two databases
// with the same schema and the same data print the same lines.
//
//   node scripts/sqlite-fingerprint.mjs <database file>
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node scripts/sqlite-fingerprint.mjs <database file>\n');
  process.exit(2);
}
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const quote = (name) => `"${name.replaceAll('"', '""')}"`;

const database = new Database(file, { fileMustExist: true });
try {
  const objects = database.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all();
  for (const { type, name, sql } of objects) process.stdout.write(`schema ${type} ${name} ${sha256(sql ?? '')}\n`);
  for (const { name } of objects.filter(({ type }) => type === 'table')) {
    const columns = database.prepare(`SELECT * FROM ${quote(name)} LIMIT 0`).columns().length;
    const order = Array.from({ length: columns }, (_, index) => index + 1).join(', ');
    const rows = database
      .prepare(`SELECT * FROM ${quote(name)} ORDER BY ${order}`)
      .raw()
      .all();
    process.stdout.write(`table ${name} rows ${rows.length} ${sha256(rows.map((row) => JSON.stringify(row)).join('\n'))}\n`);
  }
} finally {
  database.close();
}
