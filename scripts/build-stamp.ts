/**
 * Whether `.next` was built from the sources as they are now, so `npm start` (and the browser
 * tests, which start the app through it) build once and reuse the build. The stamp is a SHA-256
 * over what the build reads: the app's source folders, the config files, the lock file, and the
 * environment the build bakes in (NODE_ENV, NEXT_PUBLIC_*). Not APP_URL: the app reads it at run time,
 * so one build serves any address (docs/decisions.md, "One build, any address").
 * Written to .next/source-stamp after a successful build.
 */
import { spawn, type SpawnOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

const SOURCE_DIRS = ["app", "components", "lib", "public"];
const SOURCE_FILES = [
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

async function filesUnder(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file)); // tests beside the code are not in the build
}

export async function sourceStamp(root = process.cwd(), env = process.env): Promise<string> {
  const files = [...SOURCE_FILES, ...(await Promise.all(SOURCE_DIRS.map((d) => filesUnder(root, d)))).flat()];
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    const content = await readFile(path.join(root, file)).catch(() => null);
    hash.update(`${file}\0${content === null ? "-" : createHash("sha256").update(content).digest("hex")}\0`);
  }
  const baked = Object.keys(env)
    .filter((k) => k === "NODE_ENV" || k.startsWith("NEXT_PUBLIC_"))
    .sort()
    .map((k) => `${k}=${env[k]}`);
  hash.update(baked.join("\n"));
  return hash.digest("hex");
}

const stampFile = (root: string) => path.join(root, ".next", "source-stamp");

export async function buildIsCurrent(stamp: string, root = process.cwd()): Promise<boolean> {
  const [recorded, buildId] = await Promise.all([
    readFile(stampFile(root), "utf8").catch(() => null),
    readFile(path.join(root, ".next", "BUILD_ID"), "utf8").catch(() => null),
  ]);
  return buildId !== null && recorded === stamp;
}

export async function recordBuild(stamp: string, root = process.cwd()): Promise<void> {
  await writeFile(stampFile(root), stamp);
}

/**
 * `next build` unless .next is current for these sources and `env`; resolves to the exit code
 * (0 when skipped) and whether it built. `log`: a file for the build's output instead of ours.
 */
export async function buildIfStale(
  env: NodeJS.ProcessEnv,
  options: { root?: string; log?: string; signal?: AbortSignal } = {},
): Promise<{ code: number; built: boolean }> {
  const root = options.root ?? process.cwd();
  const buildEnv: NodeJS.ProcessEnv = { ...env, NODE_ENV: "production" };
  const stamp = await sourceStamp(root, buildEnv);
  if (await buildIsCurrent(stamp, root)) return { code: 0, built: false };
  // a build that fails or is stopped half-way must leave no stamp behind for the old build
  await rm(stampFile(root), { force: true });
  const out = options.log ? createWriteStream(options.log) : null;
  const code = await new Promise<number>((resolve) => {
    const spawnOptions: SpawnOptions = {
      cwd: root,
      env: buildEnv,
      stdio: out ? ["ignore", "pipe", "pipe"] : "inherit",
      signal: options.signal,
    };
    const child = spawn(path.join(root, "node_modules", ".bin", "next"), ["build"], spawnOptions);
    if (out) {
      child.stdout!.pipe(out, { end: false });
      child.stderr!.pipe(out, { end: false });
    }
    child.on("error", () => {}); // an aborted build: its exit resolves
    child.on("exit", (c) => resolve(c ?? 1));
  });
  out?.end();
  if (code === 0) await recordBuild(stamp, root);
  return { code, built: true };
}
