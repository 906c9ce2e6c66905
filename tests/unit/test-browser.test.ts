import { writeFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ensureBrowser } from "@/scripts/test-browser";

// npm test needs nothing by hand: it finds a browser, installs one, or says how.
describe("npm test's browser", () => {
  let dir: string;
  let saved: string | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "browser-"));
    saved = process.env.CHROMIUM_PATH;
    delete process.env.CHROMIUM_PATH;
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });
  const fakeBrowser = async (name: string) => {
    const file = path.join(dir, name);
    await writeFile(file, "#!/bin/sh\n", { mode: 0o755 });
    return file;
  };

  it("takes the first executable candidate and says which, without installing", async () => {
    const chromium = await fakeBrowser("chromium");
    const install = vi.fn(() => true);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    expect(ensureBrowser({ candidates: [path.join(dir, "absent"), chromium], install })).toBe(chromium);
    expect(install).not.toHaveBeenCalled();
    expect(log.mock.calls.flat().join("\n")).toContain(chromium);
  });

  it("CHROMIUM_PATH wins; one that is not executable is refused, not replaced", async () => {
    const chromium = await fakeBrowser("chromium");
    const mine = await fakeBrowser("my-chrome");
    vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    process.env.CHROMIUM_PATH = mine;
    expect(ensureBrowser({ candidates: [chromium], install: () => false })).toBe(mine);
    process.env.CHROMIUM_PATH = path.join(dir, "absent");
    expect(ensureBrowser({ candidates: [chromium], install: () => true })).toBeUndefined();
    expect(error.mock.calls.flat().join("\n")).toContain("is not an executable file");
  });

  it("none found: installs one and reports where it landed", () => {
    const target = path.join(dir, "chromium");
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const install = vi.fn(() => {
      writeFileSync(target, "#!/bin/sh\n", { mode: 0o755 });
      return true;
    });
    expect(ensureBrowser({ candidates: [target], install })).toBe(target);
    expect(install).toHaveBeenCalledOnce();
    expect(log.mock.calls.flat().join("\n")).toContain(`installed Debian's chromium at ${target}`);
  });

  it("an installer that reports success is not trusted without the browser there", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(ensureBrowser({ candidates: [path.join(dir, "absent")], install: () => true })).toBeUndefined();
  });

  it("none found and none installable: prints the exact command and returns nothing", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(ensureBrowser({ candidates: [path.join(dir, "absent")], install: () => false })).toBeUndefined();
    expect(error.mock.calls.flat().join("\n")).toContain("apt-get install -y chromium");
  });
});
