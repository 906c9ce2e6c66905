import { afterAll, vi } from "vitest";

/**
 * Run before every test file (vitest `setupFiles`). Test files share a worker process and its
 * loaded modules (vitest.config.ts, `isolate: false`), so what one file sets in process.env must
 * not reach the next: the environment as the file found it is put back after its last test.
 */
const before = { ...process.env };

afterAll(() => {
  vi.unstubAllEnvs();
  for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
  Object.assign(process.env, before);
});
