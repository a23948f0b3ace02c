import 'reflect-metadata';
import { ConfigError, readConfig } from './config/app-config.js';
import { createApp } from './app.setup.js';

let config;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

try {
  const app = await createApp(config);
  await app.listen(config.http.port);
} catch (error) {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
