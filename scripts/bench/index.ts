/**
 * npm run bench [-- <area> ...]: runs the benchmark modules in this folder, each printing
 * its own table. A module is a file `<area>.ts` or `<area>-<name>.ts` default-exporting a
 * BenchModule or a run function; arguments keep the modules whose area (or file name) matches. Benchmarks print figures,
 * they do not pass or fail. They need DATABASE_URL (a real Postgres server): each module
 * creates and drops its own database beside it.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface BenchModule {
  title: string;
  run(databaseUrl: string): Promise<void>;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "Set DATABASE_URL to a Postgres server (benchmarks create and drop their own databases there).",
    );
    process.exit(2);
  }
  const filters = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const dir = path.dirname(new URL(import.meta.url).pathname);
  const files = (await readdir(dir))
    .filter((f) => /^[a-z0-9]+(-[a-z0-9-]+)?\.ts$/.test(f) && f !== "index.ts")
    .filter((f) => filters.length === 0 || filters.some((x) => f === `${x}.ts` || f.startsWith(`${x}-`)))
    .sort();
  if (files.length === 0) {
    console.error(`No benchmark matches ${filters.join(", ")}.`);
    process.exit(2);
  }
  for (const file of files) {
    const exported = (await import(pathToFileURL(path.join(dir, file)).href)).default as
      BenchModule | (() => Promise<void>);
    const mod: BenchModule =
      typeof exported === "function" ? { title: file.replace(/\.ts$/, ""), run: () => exported() } : exported;
    console.log(`\n=== ${mod.title} (${file})`);
    const started = Date.now();
    await mod.run(url);
    console.log(`=== done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
