import type { ImportObserver } from '../importer/import-options.js';

export interface CliIo {
  out: (line: string) => void;
  /** True once the process was asked to stop (SIGTERM, SIGINT): a running import finishes its page. */
  stopRequested?: () => boolean;
  /** Progress display of `import:tec` (bars on a terminal, lines elsewhere); plain lines through `out` when absent. */
  importProgress?: () => ImportObserver & { close(): void };
}
