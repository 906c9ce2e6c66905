import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIsCurrent, recordBuild, sourceStamp } from "@/scripts/build-stamp";

// npm start and the browser tests reuse .next only when it was built from the sources as they are.
describe("the build stamp", () => {
  let root: string;
  const env: NodeJS.ProcessEnv = {
    APP_URL: "http://localhost:3100",
    NODE_ENV: "production",
    PATH: "/usr/bin",
  };
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "stamp-"));
    await mkdir(path.join(root, "lib", "area"), { recursive: true });
    await mkdir(path.join(root, ".next"));
    await writeFile(path.join(root, "lib", "area", "rule.ts"), "export const a = 1;\n");
    await writeFile(path.join(root, "next.config.ts"), "export default {};\n");
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("a build of these sources is current; none, or one without BUILD_ID, is not", async () => {
    const stamp = await sourceStamp(root, env);
    expect(await buildIsCurrent(stamp, root)).toBe(false);
    await recordBuild(stamp, root);
    expect(await buildIsCurrent(stamp, root)).toBe(false); // no BUILD_ID: next build never finished
    await writeFile(path.join(root, ".next", "BUILD_ID"), "x");
    expect(await buildIsCurrent(stamp, root)).toBe(true);
  });

  it("a changed, added or removed source file, or a changed config file, makes it stale", async () => {
    const before = await sourceStamp(root, env);
    await writeFile(path.join(root, "lib", "area", "rule.ts"), "export const a = 2;\n");
    const edited = await sourceStamp(root, env);
    await writeFile(path.join(root, "lib", "area", "other.ts"), "");
    const added = await sourceStamp(root, env);
    await rm(path.join(root, "lib", "area", "other.ts"));
    await writeFile(path.join(root, "next.config.ts"), "export default { poweredByHeader: false };\n");
    const config = await sourceStamp(root, env);
    expect(new Set([before, edited, added, config]).size).toBe(4);
  });

  it("the environment the build bakes in counts (NEXT_PUBLIC_*); the rest and tests do not", async () => {
    const before = await sourceStamp(root, env);
    expect(await sourceStamp(root, { ...env, NEXT_PUBLIC_X: "1" })).not.toBe(before);
    expect(await sourceStamp(root, { ...env, PATH: "/bin", DATABASE_URL: "postgres://x" })).toBe(before);
    await writeFile(path.join(root, "lib", "area", "rule.test.ts"), "");
    expect(await sourceStamp(root, env)).toBe(before);
  });

  it("one build, any address: APP_URL is read at run time, so another address or port reuses the build", async () => {
    const stamp = await sourceStamp(root, env);
    await recordBuild(stamp, root);
    await writeFile(path.join(root, ".next", "BUILD_ID"), "x");
    for (const appUrl of ["http://localhost:3205", "https://crm.example.org"])
      expect(await buildIsCurrent(await sourceStamp(root, { ...env, APP_URL: appUrl }), root)).toBe(true);
  });
});
