import { buildInfo, shortCommit, type BuildInfo } from './build-info.js';
import type { AppConfig } from './config/app-config.js';

/** A database location an operator recognises, without the password of its URL. */
export function describeDatabase(config: AppConfig): string {
  if (config.database.kind === 'sqlite') return `SQLite file ${config.database.path}`;
  try {
    const url = new URL(config.database.url);
    return `MySQL/MariaDB ${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}${url.pathname}`;
  } catch {
    return 'MySQL/MariaDB';
  }
}

/**
 * The start-up announcement: a banner for a terminal, and the same facts as log messages; `release`
 * is the version and commit, also given to the JSON line as fields of their own.
 */
export function startupLines(
  config: AppConfig,
  admin: { login: string; generatedPassword: string | null } | null,
  build: BuildInfo = buildInfo(),
) {
  const release = `version ${build.version}, commit ${shortCommit(build)}`;
  const api = `${config.http.publicUrl}${config.api.root}/${config.api.namespace}`;
  const docs = `${config.http.publicUrl}/docs`;
  const database = describeDatabase(config);
  const password =
    admin?.generatedPassword != null
      ? `New administrator "${admin.login}" with the application password ${admin.generatedPassword} — shown only this once: store it now (a lost one is replaced with: npm run cli -- app-password:create --login ${admin.login}).`
      : null;
  const banner = [
    '',
    `  Event calendar API ${build.version} (${shortCommit(build)}) listening on port ${config.http.port}`,
    `  API       ${api}`,
    `  Docs      ${docs}`,
    `  Database  ${database}`,
    ...(password
      ? [
          '',
          `  ┌─ New administrator ─────────────────────────────────────────────`,
          `  │ login     ${admin?.login}`,
          `  │ password  ${admin?.generatedPassword}`,
          `  │ Shown only this once. Lost it? npm run cli -- app-password:create --login ${admin?.login}`,
          `  └─────────────────────────────────────────────────────────────────`,
        ]
      : []),
    '',
  ];
  const log = [`Listening on port ${config.http.port}; ${release}; API ${api}; docs ${docs}; database: ${database}.`];
  return { banner, log, password, release: { version: build.version, commit: build.commit } };
}
