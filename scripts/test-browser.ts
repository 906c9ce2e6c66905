/**
 * The browser the end-to-end tests drive, found or installed by `npm test` itself.
 * Playwright cannot download its own browser here (only the npm registry and Debian's packages
 * are reachable), so the candidates are, in order: CHROMIUM_PATH, Debian's /usr/bin/chromium
 * (and the usual other names), and a browser `npx playwright install chromium` left in
 * Playwright's cache. None found: as root with apt-get, Debian's `chromium` is installed;
 * otherwise the exact command to run is printed and no browser is returned.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { chromium } from "@playwright/test";

const SYSTEM_BROWSERS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const INSTALL = "sudo apt-get update && sudo apt-get install -y chromium";

function executable(file: string | undefined): file is string {
  if (!file) return false;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function playwrightsOwn(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

function found(candidates: string[]): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return executable(fromEnv) ? fromEnv : undefined;
  return candidates.find(executable);
}

function installWithApt(): boolean {
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  if (!root || !apt) return false;
  console.log("=== browser: none found; installing Debian's chromium (apt-get install chromium)");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium"],
  ]) {
    const result = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
    if (result.status !== 0) return false;
  }
  return true;
}

/**
 * The browser's path, after printing where it came from; undefined (after printing the
 * command that installs one) when there is none and none could be installed.
 */
export function ensureBrowser(
  options: { candidates?: string[]; install?: () => boolean } = {},
): string | undefined {
  const candidates = options.candidates ?? [...SYSTEM_BROWSERS, playwrightsOwn() ?? ""];
  const install = options.install ?? installWithApt;
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && !executable(fromEnv)) {
    console.error(`=== browser: CHROMIUM_PATH=${fromEnv} is not an executable file`);
    return undefined;
  }
  let browser = found(candidates);
  if (browser) {
    console.log(`=== browser: ${browser}${fromEnv ? " (CHROMIUM_PATH)" : ""}`);
    return browser;
  }
  if (install() && (browser = found(candidates))) {
    console.log(`=== browser: installed Debian's chromium at ${browser}`);
    return browser;
  }
  console.error(
    "=== browser: no Chromium found for the end-to-end tests, and none could be installed here.\n" +
      `    Install Debian's: ${INSTALL}\n` +
      "    or point CHROMIUM_PATH at a Chromium or Chrome binary,\n" +
      "    or run `npm test -- --skip-e2e` to leave the browser tests out.",
  );
  return undefined;
}
